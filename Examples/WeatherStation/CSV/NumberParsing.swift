// Copyright (c) 2026 the swift-multicast authors.
// Licensed under the Apache License, Version 2.0; see LICENSE.

/// Reads a whole number written in ASCII digits with an optional sign, as
/// `Int(_:)` does; `nil` if it is not one or has more than 18 digits.
package func parseInteger(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
  var digits = text[...]
  let negative = digits.first == UInt8(ascii: "-")
  if negative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
  guard !digits.isEmpty, digits.count <= 18 else { return nil }
  var value = 0
  for byte in digits {
    let digit = byte &- UInt8(ascii: "0")
    guard digit < 10 else { return nil }
    value = value * 10 + Int(digit)
  }
  return negative ? -value : value
}

/// Reads a decimal number as `Double(_:)` does, with the same result.
///
/// Plain decimals of up to 15 significant digits, such as `1012.3` or
/// `-0.5`, are read directly: their digits make an integer and their decimal
/// places a power of ten, both exactly representable, so one division rounds
/// correctly. Anything else (more digits, exponents, `nan`) goes to
/// `Double(_:)`.
package func parseDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
  var rest = text[...]
  let negative = rest.first == UInt8(ascii: "-")
  if negative || rest.first == UInt8(ascii: "+") { rest = rest.dropFirst() }
  var mantissa: Int64 = 0
  var significantDigits = 0
  var decimals = 0
  var seenDigit = false
  var seenPoint = false
  for byte in rest {
    if byte == UInt8(ascii: "."), !seenPoint {
      seenPoint = true
      continue
    }
    let digit = byte &- UInt8(ascii: "0")
    guard digit < 10, significantDigits < 15 else { return slowPath(text) }
    mantissa = mantissa * 10 + Int64(digit)
    if mantissa != 0 { significantDigits += 1 }
    if seenPoint { decimals += 1 }
    seenDigit = true
  }
  guard seenDigit, decimals <= 22 else { return slowPath(text) }
  let magnitude = Double(mantissa) / powersOfTen[decimals]
  return negative ? -magnitude : magnitude
}

private func slowPath(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
  Double(String(decoding: text, as: UTF8.self))
}

/// 10⁰ through 10²², every one exactly a `Double`.
private let powersOfTen: [Double] = (0...22).map { power in
  (0..<power).reduce(1.0) { value, _ in value * 10 }
}
