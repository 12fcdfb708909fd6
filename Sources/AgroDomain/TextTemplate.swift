import Foundation

/// The placeholders of interface strings: `{0}`, `{1}`, ... for a message's values.
public enum TextTemplate {
    /// `template` with each `{0}`, `{1}`, ... replaced by that argument, in one pass over the
    /// template: an argument is never read again, so one that contains `{1}` (a name, a file,
    /// a server's words) stays as it is. A placeholder without an argument stays too.
    ///
    ///     TextTemplate.fill("{0} and {1}", ["{1}", "B"])   // "{1} and B"
    public static func fill(_ template: String, _ arguments: [String]) -> String {
        guard !arguments.isEmpty, template.contains("{") else { return template }
        var text = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            text += rest[..<open]
            let inside = rest[rest.index(after: open)...]
            if let close = inside.firstIndex(of: "}"), !inside[..<close].isEmpty,
                inside[..<close].allSatisfy({ $0.isASCII && $0.isNumber }),
                let index = Int(inside[..<close]), arguments.indices.contains(index)
            {
                text += arguments[index]
                rest = inside[inside.index(after: close)...]
            } else {
                text.append("{")
                rest = inside
            }
        }
        return text + rest
    }
}
