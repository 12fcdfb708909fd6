/// An RFC 4180 reader written for the tests, independent of the program's writer: quoted
/// fields, doubled quotes, commas and line breaks inside quotes.
enum CSVReader {
    static func rows(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" {
                        field.append("\"")
                        characters.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                row.append(field)
                field = ""
            } else if character == "\n" || character == "\r\n" {
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            } else {
                field.append(character)
            }
        }
        if !field.isEmpty || !row.isEmpty { rows.append(row + [field]) }
        return rows
    }

    /// Rows as dictionaries keyed by the header line.
    static func records(_ text: String) -> (header: [String], records: [[String: String]]) {
        let all = rows(text)
        guard let header = all.first else { return ([], []) }
        return (header, all.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) })
    }
}
