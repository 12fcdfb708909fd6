import Foundation

/// A season plan as an agronomist writes it: the culture, optional sowing and harvest dates,
/// the area, and the applications. Products, pests and the culture are ids or names; the CLI
/// resolves them. See `Database/examples/` for a JSON and a CSV plan.
public struct SeasonPlan: Sendable, Hashable, Codable {
    /// The culture, by id or by name in any catalog language.
    public var culture: String
    /// The sowing date, if known; harvest may not precede it.
    public var sowing: PlanDate?
    /// The expected harvest, which the pre-harvest intervals are checked against.
    public var harvest: PlanDate?
    /// Hectares.
    public var area: Double?
    /// The applications in the plan's order.
    public var applications: [Application]

    /// Creates a plan.
    public init(
        culture: String, sowing: PlanDate? = nil, harvest: PlanDate? = nil, area: Double? = nil, applications: [Application]
    ) {
        self.culture = culture
        self.sowing = sowing
        self.harvest = harvest
        self.area = area
        self.applications = applications
    }

    /// One pass of the sprayer (or one seed treatment): a product and its tank partners.
    public struct Application: Sendable, Hashable, Codable {
        /// The day of the application, if planned by date.
        public var date: PlanDate?
        /// The growth stage (BBCH 0-99) of the application, if planned by stage.
        public var bbch: Int?
        /// The product, by id or by name.
        public var product: String
        /// The dose, in `unit`.
        public var dose: Double
        /// The dose's unit ("l/ha", "g/t", ...).
        public var unit: String
        /// The pests the application is aimed at, by id or by name; may be empty.
        public var pests: [String]
        /// Other products in the same tank.
        public var partners: [Partner]

        /// Creates an application.
        public init(
            date: PlanDate? = nil, bbch: Int? = nil, product: String, dose: Double, unit: String,
            pests: [String] = [], partners: [Partner] = []
        ) {
            self.date = date
            self.bbch = bbch
            self.product = product
            self.dose = dose
            self.unit = unit
            self.pests = pests
            self.partners = partners
        }

        enum CodingKeys: String, CodingKey { case date, bbch, product, dose, unit, pests, partners }

        /// Decodes an application; `pests` and `partners` may be left out.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            date = try c.decodeIfPresent(PlanDate.self, forKey: .date)
            bbch = try c.decodeIfPresent(Int.self, forKey: .bbch)
            product = try c.decode(String.self, forKey: .product)
            dose = try c.decode(Double.self, forKey: .dose)
            unit = try c.decode(String.self, forKey: .unit)
            pests = try c.decodeIfPresent([String].self, forKey: .pests) ?? []
            partners = try c.decodeIfPresent([Partner].self, forKey: .partners) ?? []
        }
    }

    /// A tank partner: another product in the same pass.
    public struct Partner: Sendable, Hashable, Codable {
        /// The product, by id or by name.
        public var product: String
        /// The dose, in `unit`.
        public var dose: Double
        /// The dose's unit.
        public var unit: String
        /// The pests it is aimed at, by id or by name; may be empty.
        public var pests: [String]

        /// Creates a tank partner.
        public init(product: String, dose: Double, unit: String, pests: [String] = []) {
            self.product = product
            self.dose = dose
            self.unit = unit
            self.pests = pests
        }

        enum CodingKeys: String, CodingKey { case product, dose, unit, pests }

        /// Decodes a partner; `pests` may be left out.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            product = try c.decode(String.self, forKey: .product)
            dose = try c.decode(Double.self, forKey: .dose)
            unit = try c.decode(String.self, forKey: .unit)
            pests = try c.decodeIfPresent([String].self, forKey: .pests) ?? []
        }
    }
}

/// A plan file that cannot be read as a plan.
public struct PlanFileError: UserFacingError, Equatable {
    /// What can be wrong with a plan file, with the values typed for an interface to word.
    /// `path` is where in the JSON ("applications 2 dose": keys, and positions from 1).
    public enum Kind: Sendable, Equatable {
        /// The file is not JSON at all.
        case invalidJSON
        /// The JSON decoder's own description (English, from Foundation) at `path`.
        case malformed(detail: String, path: [String])
        /// A required key is missing.
        case missingKey(String, path: [String])
        /// A value has the wrong type.
        case wrongType(path: [String])
        /// A required value is null.
        case missingValue(path: [String])
        /// Any other decoding failure.
        case notAPlan(String)
        /// The culture is empty.
        case emptyCulture
        /// The area is not a positive number.
        case areaNotPositive
        /// No applications.
        case noApplications
        /// The harvest date lies before the sowing date.
        case harvestBeforeSowing(harvest: PlanDate, sowing: PlanDate)
        /// An application's (or partner's) dose is not positive.
        case doseNotPositive(application: Int)
        /// An application's BBCH code is outside 0-99.
        case stageOutOfRange(application: Int, bbch: Int)
        /// The CSV file has no lines.
        case emptyFile
        /// The CSV header lacks a required column.
        case missingColumn(String)
        /// A CSV field is not a number.
        case notANumber(line: Int, column: String, text: String)
        /// A CSV field is not a date.
        case notADate(line: Int, column: String, text: String)
        /// A CSV line lacks a required field.
        case missingField(line: Int, column: String)
        /// A CSV `bbch` field is not a whole number.
        case notAStage(line: Int, text: String)
        /// More applications than `SeasonPlan.maximumApplications`.
        case tooManyApplications(count: Int, maximum: Int)
    }

    /// What is wrong, and where in the file.
    public var kind: Kind
    /// Creates the error.
    public init(_ kind: Kind) { self.kind = kind }

    /// What is wrong, and where in the file, in English.
    public var reason: String {
        func at(_ path: [String]) -> String { path.isEmpty ? "" : " at " + path.joined(separator: " ") }
        switch kind {
        case .invalidJSON: return "not valid JSON"
        case let .malformed(detail, path): return detail + at(path)
        case let .missingKey(key, path): return "missing \"\(key)\"" + at(path)
        case let .wrongType(path): return "wrong type" + at(path)
        case let .missingValue(path): return "missing value" + at(path)
        case let .notAPlan(detail): return "not a plan: \(detail)"
        case .emptyCulture: return "the culture is empty"
        case .areaNotPositive: return "area must be a positive number of hectares"
        case .noApplications: return "the plan has no applications"
        case let .harvestBeforeSowing(harvest, sowing): return "harvest \(harvest) is before sowing \(sowing)"
        case let .doseNotPositive(application): return "application \(application): the dose must be a positive number"
        case let .stageOutOfRange(application, bbch): return "application \(application): BBCH \(bbch) is not a stage (0-99)"
        case .emptyFile: return "the file is empty"
        case let .missingColumn(column): return "CSV header lacks the column \"\(column)\""
        case let .notANumber(line, column, text): return "line \(line): \(column) \"\(text)\" is not a number"
        case let .notADate(line, column, text): return "line \(line): \(column) \"\(text)\" is not a date YYYY-MM-DD"
        case let .missingField(line, column): return "line \(line): no \(column)"
        case let .notAStage(line, text): return "line \(line): bbch \"\(text)\" is not a stage"
        case let .tooManyApplications(count, maximum):
            return "the plan has \(count) applications; a season plan holds at most \(maximum)"
        }
    }

    /// The reason, prefixed with "plan: ".
    public var message: String { "plan: " + reason }
}

extension SeasonPlan {
    /// Reads a plan from JSON (`{"culture": ..., "applications": [...]}`) or CSV (a header
    /// line naming the columns `culture, sowing, harvest, area, application, date, bbch,
    /// product, dose, unit, pests`; rows with the same `application` number are one tank mix;
    /// `pests` separated by `;`; culture, sowing, harvest and area on the first row).
    ///
    /// - Throws: `PlanFileError` naming what is wrong and where.
    public static func parse(_ data: Data, fileName: String) throws -> SeasonPlan {
        // A UTF-8 byte order mark (as some editors save) is no part of the plan.
        let data = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
        let text = String(decoding: data, as: UTF8.self)
        let plan: SeasonPlan
        let first = text.drop { $0.isWhitespace }.first
        let name = fileName.lowercased()
        if name.hasSuffix(".csv") || !(name.hasSuffix(".json") || first == "{" || first == "[") {
            plan = try parseCSV(text)
        } else {
            // A list is JSON too, just not a plan: say so rather than read it as CSV.
            if first == "[" {
                throw PlanFileError(
                    .notAPlan("the JSON is a list; a plan is an object {\"culture\": ..., \"applications\": [...]}"))
            }
            do {
                plan = try JSONDecoder().decode(SeasonPlan.self, from: Data(data))
            } catch let DecodingError.dataCorrupted(context) {
                throw PlanFileError(Self.describe(context))
            } catch let DecodingError.keyNotFound(key, context) {
                throw PlanFileError(.missingKey(key.stringValue, path: Self.location(context.codingPath)))
            } catch let DecodingError.typeMismatch(_, context) {
                throw PlanFileError(.wrongType(path: Self.location(context.codingPath)))
            } catch let DecodingError.valueNotFound(_, context) {
                throw PlanFileError(.missingValue(path: Self.location(context.codingPath)))
            } catch {
                throw PlanFileError(.notAPlan("\(error)"))
            }
        }
        try plan.validate()
        return plan
    }

    /// The most applications one plan may hold: a season has tens of them; the cap bounds what
    /// one request may cost the checks and the report (every rule is linear in the plan).
    public static let maximumApplications = 500

    /// Numbers the checks cannot use fail here, one line each.
    func validate() throws {
        guard !culture.trimmingCharacters(in: .whitespaces).isEmpty else { throw PlanFileError(.emptyCulture) }
        if let area, !(area.isFinite && area > 0) { throw PlanFileError(.areaNotPositive) }
        guard !applications.isEmpty else { throw PlanFileError(.noApplications) }
        guard applications.count <= Self.maximumApplications else {
            throw PlanFileError(.tooManyApplications(count: applications.count, maximum: Self.maximumApplications))
        }
        if let sowing, let harvest, harvest < sowing {
            throw PlanFileError(.harvestBeforeSowing(harvest: harvest, sowing: sowing))
        }
        for (index, application) in applications.enumerated() {
            let doses = [application.dose] + application.partners.map(\.dose)
            guard doses.allSatisfy({ $0.isFinite && $0 > 0 }) else {
                throw PlanFileError(.doseNotPositive(application: index + 1))
            }
            if let bbch = application.bbch, !(0...99).contains(bbch) {
                throw PlanFileError(.stageOutOfRange(application: index + 1, bbch: bbch))
            }
        }
    }

    private static func describe(_ context: DecodingError.Context) -> PlanFileError.Kind {
        if context.codingPath.isEmpty { return .invalidJSON }
        return .malformed(detail: context.debugDescription, path: location(context.codingPath))
    }

    /// Keys by name, array positions from 1.
    private static func location(_ path: [any CodingKey]) -> [String] {
        path.map { key in key.intValue.map { "\($0 + 1)" } ?? key.stringValue }
    }

    static func parseCSV(_ text: String) throws -> SeasonPlan {
        let records = CSVReader.records(text).filter { !$0.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty } }
        guard let header = records.first else { throw PlanFileError(.emptyFile) }
        let columns = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        for required in ["culture", "product", "dose", "unit"] where !columns.contains(required) {
            throw PlanFileError(.missingColumn(required))
        }
        var culture = "", sowing: PlanDate?, harvest: PlanDate?, area: Double?
        var applications: [SeasonPlan.Application] = []
        var lastNumber: String?
        for (offset, record) in records.dropFirst().enumerated() {
            let line = offset + 2
            func field(_ name: String) -> String? {
                guard let index = columns.firstIndex(of: name), index < record.count else { return nil }
                let value = record[index].trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : value
            }
            func number(_ name: String) throws -> Double? {
                guard let text = field(name) else { return nil }
                guard let value = Double(text.replacingOccurrences(of: ",", with: ".")) else {
                    throw PlanFileError(.notANumber(line: line, column: name, text: text))
                }
                return value
            }
            func date(_ name: String) throws -> PlanDate? {
                guard let text = field(name) else { return nil }
                guard let value = PlanDate(text) else { throw PlanFileError(.notADate(line: line, column: name, text: text)) }
                return value
            }
            if offset == 0 {
                culture = field("culture") ?? ""
                sowing = try date("sowing")
                harvest = try date("harvest")
                area = try number("area")
            }
            guard let product = field("product") else { throw PlanFileError(.missingField(line: line, column: "product")) }
            guard let dose = try number("dose") else { throw PlanFileError(.missingField(line: line, column: "dose")) }
            guard let unit = field("unit") else { throw PlanFileError(.missingField(line: line, column: "unit")) }
            let pests = (field("pests") ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            let number = field("application")
            if let number, number == lastNumber, !applications.isEmpty {
                applications[applications.count - 1].partners.append(
                    Partner(product: product, dose: dose, unit: unit, pests: pests))
                continue
            }
            lastNumber = number
            var bbch: Int?
            if let text = field("bbch") {
                guard let value = Int(text) else { throw PlanFileError(.notAStage(line: line, text: text)) }
                bbch = value
            }
            applications.append(
                Application(date: try date("date"), bbch: bbch, product: product, dose: dose, unit: unit, pests: pests))
        }
        return SeasonPlan(culture: culture, sowing: sowing, harvest: harvest, area: area, applications: applications)
    }
}

/// RFC 4180 records: quoted fields may hold commas, quotes (doubled) and line breaks.
enum CSVReader {
    static func records(_ text: String) -> [[String]] {
        var records: [[String]] = [], record: [String] = [], field = ""
        var quoted = false, afterQuote = false
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            if quoted {
                if character == "\"" { quoted = false; afterQuote = true } else { field.append(character) }
                continue
            }
            switch character {
            case "\"":
                if afterQuote { field.append("\"") }
                quoted = true
                afterQuote = false
            case ",":
                record.append(field); field = ""; afterQuote = false
            case "\n", "\r\n", "\r":
                record.append(field); records.append(record); record = []; field = ""; afterQuote = false
            default:
                field.append(character); afterQuote = false
            }
        }
        if !field.isEmpty || !record.isEmpty { record.append(field); records.append(record) }
        return records
    }
}
