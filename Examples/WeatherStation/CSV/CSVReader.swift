// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Reads comma-separated records from bytes that arrive a chunk at a time.
///
/// It reads what spreadsheets and other tools write, as RFC 4180 describes it:
///
/// - Lines end with LF or CRLF (a lone CR ends a line too).
/// - A UTF-8 byte-order mark at the very start is skipped.
/// - A field may be quoted: `"JFK"`. Inside quotes, commas and line breaks
///   are part of the field, and a doubled quote (`""`) stands for one quote.
/// - Empty lines are skipped.
///
/// Records may be split across chunks anywhere, even inside a CRLF or a
/// doubled quote. The reader keeps only the record it is reading, so memory is
/// bounded by ``maximumRecordLength`` whatever the size of the input. A longer
/// record is still read to its end, so that the next one starts in the right
/// place, and is delivered with ``CSVRecord/Problem/tooLong(bytes:limit:)``.
///
/// A record that breaks the rules is delivered with a ``CSVRecord/problem``
/// rather than dropped, so that the caller can report it by line:
///
///     var reader = CSVReader()
///     try reader.read(chunk) { record in
///       if let problem = record.problem { print("line \(record.line): \(problem)") }
///     }
///     try reader.finish { record in ... }
///
/// Reading is O(n) in the bytes read, with no allocation per record.
public struct CSVReader: ~Copyable {
  /// The longest record kept, in bytes, unless another length is given.
  public static let defaultMaximumRecordLength = 4_096

  /// The longest record kept, in bytes of the input (quotes and commas
  /// included, the line break not).
  public let maximumRecordLength: Int

  private enum State {
    /// At the start of a field.
    case fieldStart
    /// In a field that did not start with a quote.
    case unquoted
    /// Inside quotes.
    case quoted
    /// Inside quotes, just after a quote: the end of the quotes, or the first
    /// half of a doubled quote.
    case quoteInQuoted
  }

  private var state = State.fieldStart
  /// The fields' bytes, unquoted, one after another.
  private let bytes: UnsafeMutablePointer<UInt8>
  private var byteCount = 0
  /// Where each field ends in `bytes`: a record of n bytes has at most n + 1.
  private let fieldEnds: UnsafeMutablePointer<Int>
  private var fieldCount = 0
  /// The record's length in the input so far; past `maximumRecordLength`
  /// nothing more is kept.
  private var recordLength = 0
  /// The line the reader is on, from 1.
  private var line = 1
  /// The line the current record started on.
  private var recordLine = 1
  /// The line where the open quote started, and its field, from 1.
  private var quoteStart = (line: 1, field: 1)
  private var problem: CSVRecord.Problem?
  /// The last byte was a CR, so an LF now is part of the same line break.
  private var afterCR = false
  /// Inside quotes, the last byte was a CR: an LF now does not start a line.
  private var quotedAfterCR = false
  /// How many bytes of a byte-order mark have been seen at the start; `nil`
  /// once the start is past.
  private var byteOrderMarkSeen: Int? = 0

  /// Creates a reader.
  ///
  /// - Parameter maximumRecordLength: The longest record kept, in bytes; a
  ///   longer one is delivered with a problem. It must be at least 1.
  public init(maximumRecordLength: Int = defaultMaximumRecordLength) {
    precondition(
      maximumRecordLength > 0,
      "CSVReader: maximumRecordLength is \(maximumRecordLength); it must be at least 1")
    self.maximumRecordLength = maximumRecordLength
    bytes = .allocate(capacity: maximumRecordLength)
    fieldEnds = .allocate(capacity: maximumRecordLength + 1)
  }

  deinit {
    bytes.deallocate()
    fieldEnds.deallocate()
  }

  /// Reads a chunk of the input, calling `body` with each record it
  /// completes, in order.
  ///
  /// A record that is not complete at the end of the chunk is kept, and
  /// completed by the next chunk or by ``finish(_:)``.
  ///
  /// - Parameters:
  ///   - chunk: The next bytes of the input.
  ///   - body: Called with each complete record. The record is valid only
  ///     during the call.
  /// - Throws: What `body` throws; reading stops there.
  public mutating func read<E: Error>(
    _ chunk: UnsafeRawBufferPointer, _ body: (borrowing CSVRecord) throws(E) -> Void
  ) throws(E) {
    guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), chunk.count > 0
    else { return }
    let end = chunk.count
    var i = 0
    if let seen = byteOrderMarkSeen {
      i = skipByteOrderMark(base, end, seen: seen)
      if i == end { return }
    }
    if afterCR {
      afterCR = false
      if base[i] == .lineFeed { i += 1 }
    }
    while i < end {
      switch state {
      case .fieldStart, .unquoted:
        if state == .fieldStart, base[i] == .quote {
          quoteStart = (line, fieldCount + 1)
          quotedAfterCR = false
          state = .quoted
          recordLength += 1
          i += 1
          continue
        }
        // The common case: plain bytes up to a comma or a line break.
        var j = i
        while j < end {
          let byte = base[j]
          if byte == .comma || byte == .lineFeed || byte == .carriageReturn || byte == .quote {
            break
          }
          j += 1
        }
        keep(base + i, count: j - i)
        state = .unquoted
        i = j
        guard i < end else { break }
        let byte = base[i]
        i += 1
        switch byte {
        case .comma:
          endField()
          recordLength += 1
          state = .fieldStart
        case .quote:
          // RFC 4180 allows quotes only around a whole field.
          noteProblem(.quoteInUnquotedField(field: fieldCount + 1))
          keep(base + i - 1, count: 1)
        default:
          try endLine(base, end, at: &i, body)
        }
      case .quoted:
        // A line break inside quotes is part of the field, but still a line.
        var j = i
        var afterCR = quotedAfterCR
        while j < end {
          let byte = base[j]
          if byte == .quote { break }
          if byte == .carriageReturn || (byte == .lineFeed && !afterCR) { line += 1 }
          afterCR = byte == .carriageReturn
          j += 1
        }
        // A quote ends the scan, and is not a CR.
        quotedAfterCR = j == end && afterCR
        keep(base + i, count: j - i)
        i = j
        if i < end {
          recordLength += 1
          state = .quoteInQuoted
          i += 1
        }
      case .quoteInQuoted:
        let byte = base[i]
        switch byte {
        case .quote:
          // A doubled quote: one quote in the field.
          keep(base + i, count: 1)
          state = .quoted
          i += 1
        case .comma, .lineFeed, .carriageReturn:
          state = .unquoted
        default:
          noteProblem(.textAfterClosingQuote(field: fieldCount + 1))
          state = .unquoted
        }
      }
    }
  }

  /// Ends the input, calling `body` with the last record if the input did not
  /// end with a line break.
  ///
  /// A quoted field still open at the end is delivered with
  /// ``CSVRecord/Problem/unclosedQuote(line:field:)``. After this call the
  /// reader starts again, as if at the start of a new input.
  ///
  /// - Parameter body: Called with the last record, if there is one.
  /// - Throws: What `body` throws.
  public mutating func finish<E: Error>(_ body: (borrowing CSVRecord) throws(E) -> Void) throws(E) {
    defer { reset() }
    if let seen = byteOrderMarkSeen, seen > 0 {
      // The input was only the start of a byte-order mark: it is data.
      keep(Self.byteOrderMark, count: seen)
      state = .unquoted
    }
    switch state {
    case .quoted:
      noteProblem(.unclosedQuote(line: quoteStart.line, field: quoteStart.field))
    case .fieldStart where fieldCount == 0 && recordLength == 0:
      return
    default:
      break
    }
    try deliver(body)
  }

  // MARK: Steps

  /// Skips the bytes of a byte-order mark at the start of the input; returns
  /// where reading goes on.
  private mutating func skipByteOrderMark(
    _ base: UnsafePointer<UInt8>, _ end: Int, seen: Int
  ) -> Int {
    let mark = Self.byteOrderMark
    var seen = seen
    var i = 0
    while seen < 3, i < end, base[i] == mark[seen] {
      seen += 1
      i += 1
    }
    if seen == 3 {
      byteOrderMarkSeen = nil
      return i
    }
    if i == end {
      // The chunk ended inside what may be a mark.
      byteOrderMarkSeen = seen
      return i
    }
    // Not a mark after all. Bytes taken for one in earlier chunks are kept
    // as data; those in this chunk are read again.
    byteOrderMarkSeen = nil
    if seen > i {
      keep(mark, count: seen - i)
      state = .unquoted
    }
    return 0
  }

  private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  private mutating func endLine<E: Error>(
    _ base: UnsafePointer<UInt8>, _ end: Int, at i: inout Int,
    _ body: (borrowing CSVRecord) throws(E) -> Void
  ) throws(E) {
    let byte = base[i - 1]
    if byte == .carriageReturn {
      if i < end {
        if base[i] == .lineFeed { i += 1 }
      } else {
        afterCR = true
      }
    }
    line += 1
    if fieldCount == 0 && recordLength == 0 && problem == nil {
      // An empty line.
      state = .fieldStart
      recordLine = line
      return
    }
    try deliver(body)
  }

  private mutating func deliver<E: Error>(_ body: (borrowing CSVRecord) throws(E) -> Void)
    throws(E)
  {
    endField()
    if recordLength > maximumRecordLength, problem == nil {
      problem = .tooLong(bytes: recordLength, limit: maximumRecordLength)
    }
    let record = CSVRecord(
      line: recordLine, bytes: UnsafePointer(bytes), fieldEnds: UnsafePointer(fieldEnds),
      count: recordLength > maximumRecordLength ? 0 : fieldCount, problem: problem)
    startRecord()
    try body(record)
  }

  private mutating func keep(_ source: UnsafePointer<UInt8>, count: Int) {
    let length = recordLength + count
    if length <= maximumRecordLength {
      (bytes + byteCount).update(from: source, count: count)
      byteCount += count
    }
    recordLength = length
  }

  private mutating func endField() {
    if recordLength <= maximumRecordLength {
      fieldEnds[fieldCount] = byteCount
      fieldCount += 1
    }
  }

  private mutating func noteProblem(_ problem: CSVRecord.Problem) {
    if self.problem == nil { self.problem = problem }
  }

  private mutating func startRecord() {
    state = .fieldStart
    byteCount = 0
    fieldCount = 0
    recordLength = 0
    recordLine = line
    problem = nil
  }

  private mutating func reset() {
    startRecord()
    line = 1
    recordLine = 1
    afterCR = false
    quotedAfterCR = false
    byteOrderMarkSeen = 0
  }
}

/// One record that ``CSVReader`` read: its fields, the line it started on,
/// and what is wrong with it, if anything.
///
/// A record is valid only during the call that receives it; copy what you
/// keep.
public struct CSVRecord {
  /// What makes a record break the rules.
  public enum Problem: Equatable, Sendable, CustomStringConvertible {
    /// The record is longer than the reader keeps (`limit`); it has no
    /// fields.
    case tooLong(bytes: Int, limit: Int)
    /// A quoted field is not closed before the input ends. The rest of the
    /// input was read as part of it.
    case unclosedQuote(line: Int, field: Int)
    /// A field that does not start with a quote has one inside.
    case quoteInUnquotedField(field: Int)
    /// A quoted field's closing quote is followed by more text.
    case textAfterClosingQuote(field: Int)

    /// The problem in words.
    public var description: String {
      switch self {
      case .tooLong(let bytes, let limit):
        "the row is \(bytes) bytes long; rows of at most \(limit) bytes are read"
      case .unclosedQuote(let line, let field):
        "the quote that opens field \(field) on line \(line) is never closed, so the rest of the file was read as part of the field"
      case .quoteInUnquotedField(let field):
        "field \(field) has a quote inside, but quotes may only enclose a whole field (write \"\" for a quote inside quotes)"
      case .textAfterClosingQuote(let field):
        "field \(field) has text after its closing quote"
      }
    }
  }

  /// The line the record starts on, from 1.
  public let line: Int
  let bytes: UnsafePointer<UInt8>
  let fieldEnds: UnsafePointer<Int>
  /// The number of fields; 0 if the record was too long to keep.
  public let count: Int
  /// What is wrong with the record, or `nil` if it follows the rules.
  public let problem: Problem?

  init(
    line: Int, bytes: UnsafePointer<UInt8>, fieldEnds: UnsafePointer<Int>, count: Int,
    problem: Problem?
  ) {
    self.line = line
    self.bytes = bytes
    self.fieldEnds = fieldEnds
    self.count = count
    self.problem = problem
  }

  /// The bytes of a field, without its quotes.
  ///
  /// - Parameter index: The field's index, from 0.
  /// - Returns: The bytes, valid while the record is.
  package func bytes(at index: Int) -> UnsafeBufferPointer<UInt8> {
    precondition(index >= 0 && index < count, "CSVRecord: no field \(index) in \(count)")
    let start = index == 0 ? 0 : fieldEnds[index - 1]
    return UnsafeBufferPointer(start: bytes + start, count: fieldEnds[index] - start)
  }

  /// Whether the record is one field of nothing but spaces or tabs.
  package var isBlank: Bool {
    problem == nil && count == 1
      && bytes(at: 0).allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
  }

  /// A field's text, without its quotes and with doubled quotes made single.
  ///
  /// - Parameter index: The field's index, from 0 to `count - 1`.
  public subscript(index: Int) -> String {
    String(decoding: bytes(at: index), as: UTF8.self)
  }
}

extension UInt8 {
  fileprivate static let comma = UInt8(ascii: ",")
  fileprivate static let quote = UInt8(ascii: "\"")
  fileprivate static let lineFeed = UInt8(ascii: "\n")
  fileprivate static let carriageReturn = UInt8(ascii: "\r")
}
