#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Removes what the renderer never shows before libxml2 sees it: the content of `<script>`
/// and `<style>` elements and comments. libxml2 reads those a character at a time and they
/// are often a third of a real page; a byte scan with `memchr` is much cheaper.
///
/// The scan follows libxml2's own tokenizing closely enough to be output-neutral: tags are
/// skipped with their attributes (quoted values may contain "<script"), raw text ends at
/// the first "</script" or "</style" whatever follows, as libxml2 ends it in recovery mode,
/// and anything unterminated is left for libxml2. The tests render every fixture both ways
/// and compare.
enum RawTextStripper {
    /// The input without script/style content and comments, or nil when there is nothing
    /// to remove.
    static func strip(_ input: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count > 0 else { return nil }
        let n = input.count
        var out: [UInt8] = []
        var copyFrom = 0
        var i = 0

        func append(_ from: Int, _ to: Int) {
            if out.isEmpty { out.reserveCapacity(n) }
            out.append(contentsOf: UnsafeBufferPointer(start: base + from, count: to - from))
        }
        func find(_ needle: [UInt8], from start: Int, caseInsensitive: Bool) -> Int? {
            var k = start
            while k + needle.count <= n {
                guard let hit = memchr(base + k, Int32(needle[0]), n - k) else { return nil }
                let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if at + needle.count > n { return nil }
                var match = true
                for m in 1..<needle.count {
                    let c = base[at + m]
                    if (caseInsensitive ? c | 0x20 : c) != needle[m] {
                        match = false
                        break
                    }
                }
                if match { return at }
                k = at + 1
            }
            return nil
        }

        while i < n {
            guard let hit = memchr(base + i, Int32(UInt8(ascii: "<")), n - i) else { break }
            i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if i + 3 < n && base[i + 1] == UInt8(ascii: "!") && base[i + 2] == UInt8(ascii: "-")
                && base[i + 3] == UInt8(ascii: "-")
            {
                guard let end = find(Array("-->".utf8), from: i + 4, caseInsensitive: false) else { break }
                append(copyFrom, i)
                copyFrom = end + 3
                i = copyFrom
                continue
            }
            guard i + 1 < n, isLetter(base[i + 1]) else {
                i += 1
                continue
            }
            var j = i + 1
            while j < n && isNameByte(base[j]) { j += 1 }
            let nameStart = i + 1
            let nameLength = j - nameStart
            // Skip the attributes to the closing ">", honouring quoted values.
            var k = j
            var quote: UInt8 = 0
            var afterEquals = false
            while k < n {
                let c = base[k]
                if quote != 0 {
                    if c == quote { quote = 0 }
                } else if c == UInt8(ascii: ">") {
                    break
                } else if c == UInt8(ascii: "=") {
                    afterEquals = true
                } else if (c == UInt8(ascii: "\"") || c == UInt8(ascii: "'")) && afterEquals {
                    quote = c
                    afterEquals = false
                } else if c != 0x20 && c != 0x09 && c != 0x0A && c != 0x0D {
                    afterEquals = false
                }
                k += 1
            }
            guard k < n else { break }
            let raw: [UInt8]?
            if base[k - 1] == UInt8(ascii: "/") {
                // "<script .../>": libxml2 may or may not take it as self-closed (it depends
                // on how the last attribute was quoted); leave it to libxml2.
                raw = nil
            } else if nameLength == 6 && equalsLower(base + nameStart, "script") {
                raw = Array("</script".utf8)
            } else if nameLength == 5 && equalsLower(base + nameStart, "style") {
                raw = Array("</style".utf8)
            } else {
                raw = nil
            }
            if let raw {
                guard let close = find(raw, from: k + 1, caseInsensitive: true) else { break }
                append(copyFrom, k + 1)
                copyFrom = close
                i = close + raw.count
                continue
            }
            i = k + 1
        }
        if out.isEmpty && copyFrom == 0 { return nil }
        append(copyFrom, n)
        return out
    }

    @inline(__always)
    static func isLetter(_ c: UInt8) -> Bool {
        let l = c | 0x20
        return l >= UInt8(ascii: "a") && l <= UInt8(ascii: "z")
    }

    @inline(__always)
    static func isNameByte(_ c: UInt8) -> Bool {
        isLetter(c) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-")
            || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") || c == UInt8(ascii: ".")
    }

    static func equalsLower(_ p: UnsafePointer<UInt8>, _ name: StaticString) -> Bool {
        let q = name.utf8Start
        for m in 0..<name.utf8CodeUnitCount where p[m] | 0x20 != q[m] { return false }
        return true
    }
}
