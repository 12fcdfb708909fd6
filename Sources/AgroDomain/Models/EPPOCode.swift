import Foundation

/// The codes of the EPPO Global Database (https://gd.eppo.int), which name plants and pests
/// across languages: five characters for a plant (TRZAW, winter wheat), six for a pest or
/// pathogen (SEPTTR, Zymoseptoria tritici), and a leading digit for a taxonomic group (1TRZG,
/// the genus Triticum). Field records under Regulation (EU) 2023/564 name the crop by its code.
public enum EPPOCode {
    /// The code as EPPO writes it (capitals, no blanks), or nil when `text` is not shaped like
    /// one: five or six letters or digits, at least one of them a letter.
    public static func normalized(_ text: String) -> String? {
        let code = text.trimmingCharacters(in: .whitespaces).uppercased()
        let characters = Array(code.unicodeScalars)
        guard (5...6).contains(characters.count),
            characters.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) }),
            characters.contains(where: { ("A"..."Z").contains($0) })
        else { return nil }
        return code
    }
}
