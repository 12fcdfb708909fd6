import AgroDomain
import Foundation

/// Dates as feeds write them: RFC 822 (RSS), ISO 8601 / RFC 3339 (Atom, Dublin Core) and
/// bare Unix timestamps. Parsed by hand: feeds bend both formats in many ways, and
/// DateFormatter depends on locale settings.
public enum FeedDate {
    /// The date in `text`, or nil when it matches none of the accepted forms.
    public static func parse(_ text: String) -> Date? {
        let s = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = s.unicodeScalars.first else { return nil }
        if s.allSatisfy(\.isASCIIDigit), s.count >= 9, s.count <= 12, let seconds = Double(s) {
            return Date(timeIntervalSince1970: seconds)
        }
        if ("0"..."9").contains(first), s.count >= 10, s.utf8.dropFirst(4).first == UInt8(ascii: "-") {
            return iso(s)
        }
        return rfc822(s)
    }

    /// `date` as "YYYY-MM-DDTHH:MM:SSZ".
    public static func iso8601(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rest = seconds - days * 86400
        let (y, m, d) = GregorianDays.date(days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(y)-\(two(m))-\(two(d))T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))Z"
    }

    static func iso(_ s: String) -> Date? {
        let c = Array(s.utf8)
        func num(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= c.count else { return nil }
            var v = 0
            for i in from..<(from + count) {
                guard c[i] >= 48 && c[i] <= 57 else { return nil }
                v = v * 10 + Int(c[i] - 48)
            }
            return v
        }
        guard let year = num(0, 4), let month = num(5, 2), let day = num(8, 2) else { return nil }
        var hour = 0, minute = 0, second = 0.0, offset = 0
        var i = 10
        if i < c.count && (c[i] == UInt8(ascii: "T") || c[i] == UInt8(ascii: "t") || c[i] == 0x20) {
            guard let h = num(i + 1, 2), let m = num(i + 4, 2) else { return nil }
            hour = h
            minute = m
            i += 6
            if i < c.count && c[i] == UInt8(ascii: ":"), let sec = num(i + 1, 2) {
                second = Double(sec)
                i += 3
                if i < c.count && (c[i] == UInt8(ascii: ".") || c[i] == UInt8(ascii: ",")) {
                    var j = i + 1
                    var scale = 0.1
                    while j < c.count && c[j] >= 48 && c[j] <= 57 {
                        second += Double(c[j] - 48) * scale
                        scale /= 10
                        j += 1
                    }
                    i = j
                }
            }
            while i < c.count && c[i] == 0x20 { i += 1 }
            if i < c.count && (c[i] == UInt8(ascii: "+") || c[i] == UInt8(ascii: "-")) {
                let sign = c[i] == UInt8(ascii: "-") ? -1 : 1
                guard let oh = num(i + 1, 2) else { return nil }
                let om = num(i + 4, 2) ?? num(i + 3, 2) ?? 0
                offset = sign * (oh * 3600 + om * 60)
            }
        }
        return make(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let zones: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6,
        "pst": -8, "pdt": -7, "cet": 1, "cest": 2, "bst": 1, "msk": 3,
    ]

    /// "Sat, 07 Sep 2002 09:42:31 GMT" and its variants: weekday optional, one- or two-digit
    /// days, two-digit years, full month names, seconds optional, zone optional (UTC).
    static func rfc822(_ s: String) -> Date? {
        let tokens = s.lowercased().split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
        var day: Int?, month: Int?, year: Int?, hour = 0, minute = 0, second = 0, offset = 0
        for token in tokens {
            if token.contains(":") {
                let parts = token.split(separator: ":").map { Int($0) }
                guard parts.count >= 2, let h = parts[0], let m = parts[1] else { return nil }
                hour = h
                minute = m
                second = parts.count > 2 ? (parts[2] ?? 0) : 0
            } else if let n = Int(token), token.first != "+", token.first != "-" {
                if day == nil && n >= 1 && n <= 31 {
                    day = n
                } else if year == nil {
                    year = n < 50 ? 2000 + n : (n < 100 ? 1900 + n : n)
                }
            } else if token.first == "+" || token.first == "-", token.count == 5, let v = Int(token.dropFirst()) {
                offset = (token.first == "-" ? -1 : 1) * ((v / 100) * 3600 + (v % 100) * 60)
            } else if let m = months.firstIndex(where: { token.hasPrefix($0) }), token.count >= 3 {
                month = m + 1
            } else if let z = zones[token] {
                offset = z * 3600
            }
        }
        guard let day, let month, let year else { return nil }
        return make(year: year, month: month, day: day, hour: hour, minute: minute, second: Double(second), offset: offset)
    }

    static func make(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double, offset: Int) -> Date? {
        // A feed's year may be any number ("07 Sep 99999999999999999"): four digits at most, so
        // that the day count below cannot overflow.
        guard (0...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...24).contains(hour),
            (0...59).contains(minute), second < 61
        else { return nil }
        let days = GregorianDays.days(year: year, month: month, day: day)
        let t = Double(days * 86400 + hour * 3600 + minute * 60 - offset) + second
        return Date(timeIntervalSince1970: t)
    }
}

extension Character {
    var isASCIIDigit: Bool { asciiValue.map { $0 >= 48 && $0 <= 57 } ?? false }
}
