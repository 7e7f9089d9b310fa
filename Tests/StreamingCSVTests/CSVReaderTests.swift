// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

import StreamingCSV
import Testing

@Suite("CSV reader")
struct CSVReaderTests {
  /// Reads `bytes` a chunk of `size` at a time; returns each record's line,
  /// fields and problem.
  static func records(_ bytes: [UInt8], chunk size: Int = .max, maximumRecordLength: Int = 64)
    -> [(line: Int, fields: [String], problem: CSVRecord.Problem?)]
  {
    var reader = CSVReader(maximumRecordLength: maximumRecordLength)
    var records: [(line: Int, fields: [String], problem: CSVRecord.Problem?)] = []
    let take = { (record: borrowing CSVRecord) in
      var fields: [String] = []
      for index in 0..<record.count { fields.append(record[index]) }
      records.append((record.line, fields, record.problem))
    }
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + min(size, bytes.count))
      bytes[offset..<end].withUnsafeBytes { reader.read($0, take) }
      offset = end
    }
    reader.finish(take)
    return records
  }

  static func records(_ text: String, chunk size: Int = .max)
    -> [(line: Int, fields: [String], problem: CSVRecord.Problem?)]
  {
    records(Array(text.utf8), chunk: size)
  }

  @Test("Fields: quoted, with commas, doubled quotes and line breaks inside, and empty ones")
  func fields() {
    for size in [1, 2, 3, 100] {
      let read = Self.records("a,\"b,c\",\"d\"\"e\",\n\"x\r\ny\",,\"\"\nlast", chunk: size)
      #expect(read.map(\.fields) == [["a", "b,c", "d\"e", ""], ["x\r\ny", "", ""], ["last"]])
      #expect(read.map(\.line) == [1, 2, 4])
      #expect(read.allSatisfy { $0.problem == nil })
    }
  }

  @Test("Inside quotes, CR, LF and CRLF are each one line, even around a doubled quote")
  func lineBreaksInsideQuotes() {
    for size in [1, 2, 100] {
      let read = Self.records("\"a\r\"\"\nb\r\nc\"\nnext", chunk: size)
      #expect(read.map(\.fields) == [["a\r\"\nb\r\nc"], ["next"]])
      #expect(read.map(\.line) == [1, 5])
    }
  }

  @Test("Empty lines are skipped; a lone CR ends a line; CRLF is one line break")
  func lineBreaks() {
    let read = Self.records("\n\r\na\rb\r\n\r\nc\n\n")
    #expect(read.map(\.fields) == [["a"], ["b"], ["c"]])
    #expect(read.map(\.line) == [3, 4, 6])
  }

  @Test("A byte-order mark is skipped only at the start, even split across chunks")
  func byteOrderMark() {
    for size in [1, 2, 4] {
      let read = Self.records("\u{FEFF}a,\u{FEFF}b", chunk: size)
      #expect(read.map(\.fields) == [["a", "\u{FEFF}b"]])
    }
    // The start of a mark that is not one is data.
    let partial = Self.records([0xEF, 0xBB, UInt8(ascii: "a"), UInt8(ascii: "\n")], chunk: 1)
    #expect(partial.first?.fields == [String(decoding: [0xEF, 0xBB, 0x61], as: UTF8.self)])
    let alone = Self.records([0xEF, 0xBB], chunk: 1)
    #expect(alone.map(\.fields) == [[String(decoding: [0xEF, 0xBB], as: UTF8.self)]])
  }

  @Test("A record longer than the maximum is reported with its length, and the next is read")
  func tooLong() {
    let long = String(repeating: "x", count: 100)
    for size in [1, 7, 1_000] {
      let read = Self.records("a\n\(long),\"\(long)\"\nb", chunk: size)
      #expect(read.map(\.fields) == [["a"], [], ["b"]])
      #expect(read.map(\.problem) == [nil, .tooLong(bytes: 203, limit: 64), nil])
    }
  }

  @Test("The reader starts again after finishing")
  func reuse() {
    var reader = CSVReader()
    var lines: [Int] = []
    for _ in 0..<2 {
      Array("\u{FEFF}a\nb".utf8).withUnsafeBytes { reader.read($0) { lines.append($0.line) } }
      reader.finish { lines.append($0.line) }
    }
    #expect(lines == [1, 2, 1, 2])
  }
}
