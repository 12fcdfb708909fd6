import AgroDomain
import AgroTerminal

extension Environment {
    /// A page of products as its JSON document, the bytes `json(PageDocument(page))` gives: the
    /// one place the CLI and the web API choose how it is written.
    package static func json(products page: Page<ProductSummary>) -> String {
        // Kept beside the encoder: the products API's p99 is 41 ms with it, 71 ms without (Benchmarks/web/README.md).
        ProductPageJSON.json(page)
    }
}

/// A page of products as `Environment.json(PageDocument(page))` writes it, byte for byte,
/// written directly: `JSONEncoder` (a boxed value tree, then sorted keys) was about an eighth
/// of an uncached `/api/v1/products` request (Benchmarks/web/README.md). Keys come in the
/// encoder's sorted order, indented by two spaces with `" : "`, strings escaped as the encoder
/// escapes them (slashes left alone) and then as `json(data:)` escapes DEL, C1 and
/// bidirectional controls; numbers as the encoder writes them. One test suite, written by hand,
/// runs against both writers. Chosen in `Environment.json(products:)`.
package enum ProductPageJSON {
    /// The document, with the final newline `Environment.json` adds.
    package static func json(_ page: Page<ProductSummary>) -> String {
        Writer.document(page, bytesPerItem: 420, item: product)
    }

    /// One item at depth 2 (`ProductSummary.encode(to:)`: optional keys left out when nil,
    /// but `registrationNumber` always present).
    private static func product(_ item: ProductSummary, into out: inout Writer) {
        out.raw("    {\n      \"category\" : ")
        out.string(item.category.rawValue)
        if let company = item.company {
            out.raw(",\n      \"company\" : ")
            out.string(company)
        }
        if let formulation = item.formulation {
            out.raw(",\n      \"formulation\" : ")
            out.string(formulation)
        }
        out.raw(",\n      \"id\" : ")
        out.string(item.id)
        out.raw(",\n      \"ingredients\" : [")
        out.raw(item.ingredients.isEmpty ? "\n\n      ]" : "\n")
        for (index, ingredient) in item.ingredients.enumerated() {
            if index > 0 { out.raw(",\n") }
            self.ingredient(ingredient, into: &out)
        }
        if !item.ingredients.isEmpty { out.raw("\n      ]") }
        out.raw(",\n      \"name\" : ")
        out.string(item.name)
        if let expiry = item.registrationExpiry {
            out.raw(",\n      \"registrationExpiry\" : ")
            out.string(expiry)
        }
        out.raw(",\n      \"registrationNumber\" : ")
        if let number = item.registrationNumber { out.string(number) } else { out.raw("null") }
        out.raw("\n    }")
    }

    /// One ingredient at depth 4 (synthesized encoding: nil optionals left out).
    private static func ingredient(_ ingredient: ActiveIngredient, into out: inout Writer) {
        var separator = "        {\n          "
        if let concentration = ingredient.concentration {
            out.raw(separator + "\"concentration\" : ")
            out.raw(number(concentration))
            separator = ",\n          "
        }
        if let mode = ingredient.modeOfAction {
            out.raw(separator + "\"modeOfAction\" : {\n            \"group\" : ")
            out.string(mode.group)
            out.raw(",\n            \"scheme\" : ")
            out.string(mode.scheme)
            out.raw("\n          }")
            separator = ",\n          "
        }
        out.raw(separator + "\"substance\" : {\n            \"id\" : ")
        out.string(ingredient.substance.id)
        out.raw(",\n            \"name\" : ")
        out.string(ingredient.substance.name)
        out.raw("\n          }")
        if let unit = ingredient.unit {
            out.raw(",\n          \"unit\" : ")
            out.string(unit)
        }
        out.raw("\n        }")
    }

    /// A number as `JSONEncoder` writes a `Double`: its description without a trailing ".0".
    /// (A concentration is never infinite or NaN: the encoder would refuse the document.)
    static func number(_ value: Double) -> String {
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    struct Writer {
        var bytes: [UInt8] = []

        /// The document of `page` (`PageDocument`'s), each item at depth 2 written by `item`.
        static func document<Item>(
            _ page: Page<Item>, bytesPerItem: Int, item: (Item, inout Writer) -> Void
        ) -> String {
            var out = Writer()
            out.bytes.reserveCapacity(512 + page.items.count * bytesPerItem)
            out.raw("{\n  \"items\" : [")
            out.raw(page.items.isEmpty ? "\n\n  ]" : "\n")
            for (index, element) in page.items.enumerated() {
                if index > 0 { out.raw(",\n") }
                item(element, &out)
            }
            return out.closing(page)
        }

        /// The document of `page` finished after its items: the list closed, then `page`,
        /// `perPage` and `total` as the encoder writes them.
        private mutating func closing<Item>(_ page: Page<Item>) -> String {
            if !page.items.isEmpty { raw("\n  ]") }
            raw(",\n  \"page\" : ")
            raw(String(page.page))
            raw(",\n  \"perPage\" : ")
            raw(String(page.perPage))
            raw(",\n  \"total\" : ")
            raw(String(page.total))
            raw("\n}\n")
            return String(decoding: bytes, as: UTF8.self)
        }

        mutating func raw(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        /// A JSON string: `"` and `\` escaped, C0 controls as the encoder writes them, and the
        /// scalars `json(data:)` escapes as `\uXXXX` (upper-case hex).
        mutating func string(_ text: String) {
            bytes.append(0x22)
            var text = text
            text.withUTF8 { utf8 in
                // Most names need no escape at all: their bytes go as they are.
                if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
                    bytes.append(contentsOf: utf8)
                    return
                }
                for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
                    escape(scalar)
                }
            }
            bytes.append(0x22)
        }

        private mutating func escape(_ scalar: Unicode.Scalar) {
            let value = scalar.value
            switch value {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x08: bytes.append(contentsOf: [0x5C, 0x62])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0C: bytes.append(contentsOf: [0x5C, 0x66])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            case 0..<0x20: hex(value, upperCase: false)
            case 0x7F...:
                if TerminalText.isUnsafe(value) {
                    hex(value, upperCase: true)
                } else {
                    UTF8.encode(scalar) { bytes.append($0) }
                }
            default: bytes.append(UInt8(value))
            }
        }

        /// `\u` and the value in at least four hex digits.
        private mutating func hex(_ value: UInt32, upperCase: Bool) {
            let digits = String(value, radix: 16, uppercase: upperCase)
            raw("\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits)
        }
    }
}
