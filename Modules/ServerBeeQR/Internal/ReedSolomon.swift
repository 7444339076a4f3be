/// Reed–Solomon error correction over GF(256) as QR codes use it (ISO/IEC 18004 §7.5.2).
///
/// The field is built on the primitive polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D) with α = 2, and
/// the generator polynomial of degree n is (x − α⁰)(x − α¹)…(x − αⁿ⁻¹).
///
/// ```swift
/// let check = ReedSolomon.errorCorrection(for: dataCodewords, count: 10)
/// ```
enum ReedSolomon {
  /// αⁱ for i in 0..<255, repeated once so a sum of two logarithms needs no modulo.
  static let exponents: [UInt8] = {
    var table = [UInt8](repeating: 0, count: 510)
    var value = 1
    for index in 0..<255 {
      table[index] = UInt8(value)
      table[index + 255] = UInt8(value)
      value <<= 1
      if value & 0x100 != 0 { value ^= 0x11D }
    }
    return table
  }()

  /// The discrete logarithm of each non-zero element (entry 0 is unused).
  static let logarithms: [Int] = {
    var table = [Int](repeating: 0, count: 256)
    for index in 0..<255 { table[Int(exponents[index])] = index }
    return table
  }()

  /// The product of two field elements.
  static func multiply(_ left: UInt8, _ right: UInt8) -> UInt8 {
    if left == 0 || right == 0 { return 0 }
    return exponents[logarithms[Int(left)] + logarithms[Int(right)]]
  }

  /// The generator polynomial of `degree`, highest power first, leading coefficient 1 included.
  static func generator(degree: Int) -> [UInt8] {
    var polynomial: [UInt8] = [1]
    for root in 0..<degree {
      var next = [UInt8](repeating: 0, count: polynomial.count + 1)
      for (index, coefficient) in polynomial.enumerated() {
        next[index] ^= coefficient
        next[index + 1] ^= multiply(coefficient, exponents[root])
      }
      polynomial = next
    }
    return polynomial
  }

  /// The `count` error-correction codewords of one block: the remainder of data(x)·xⁿ divided
  /// by the generator polynomial of degree `count`.
  static func errorCorrection(for data: [UInt8], count: Int) -> [UInt8] {
    errorCorrection(for: data, generator: generator(degree: count))
  }

  /// The error-correction codewords of one block for a precomputed ``generator(degree:)``, so the
  /// blocks of one symbol share it.
  static func errorCorrection(for data: [UInt8], generator: [UInt8]) -> [UInt8] {
    let count = generator.count - 1
    var remainder = [UInt8](repeating: 0, count: count)
    guard count > 0 else { return remainder }
    for codeword in data {
      let factor = codeword ^ remainder[0]
      remainder.removeFirst()
      remainder.append(0)
      for index in 0..<count {
        remainder[index] ^= multiply(generator[index + 1], factor)
      }
    }
    return remainder
  }
}
