import Foundation

/// A field or a spray record the journal refuses to store, with the values typed for an
/// interface to word. Nothing is written when one is thrown.
public enum JournalError: UserFacingError, Equatable {
    /// No field has this name or id.
    case unknownField(String)
    /// Another field already has this name.
    case fieldNameTaken(String)
    /// A field's name is empty.
    case emptyFieldName
    /// An area (of a field or treated) that is not a positive number of hectares.
    case areaNotPositive
    /// More hectares treated than the field has.
    case areaLargerThanField(treated: Double, field: Double)
    /// The expected harvest lies before the sowing.
    case harvestBeforeSowing(harvest: PlanDate, sowing: PlanDate)
    /// A record without a product.
    case noProduct
    /// A dose that is not a positive number (the product's position, from 1).
    case doseNotPositive(product: Int)
    /// A BBCH code outside 0-99.
    case stageOutOfRange(Int)
    /// A water volume that is not a positive number.
    case waterNotPositive
    /// A weather reading out of its physical range (`quantity`: wind, gusts, temperature,
    /// humidity, rain).
    case readingOutOfRange(quantity: String, value: Double)
    /// A spray dated more than a day after today.
    case dateInFuture(date: PlanDate, today: PlanDate)
    /// Spraying ends before it starts.
    case endBeforeStart
    /// No record has this id.
    case unknownRecord(String)
    /// A revision of a record written more than `hours` ago without a reason.
    case reasonRequired(hours: Int)
    /// A revision id already stored with different contents.
    case revisionConflict(UUID)

    /// One line in English.
    public var message: String {
        switch self {
        case let .unknownField(text): return "no field is called \"\(text)\""
        case let .fieldNameTaken(name): return "a field called \"\(name)\" exists already"
        case .emptyFieldName: return "a field needs a name"
        case .areaNotPositive: return "the area must be a positive number of hectares"
        case let .areaLargerThanField(treated, field): return "\(treated) ha treated is more than the field's \(field) ha"
        case let .harvestBeforeSowing(harvest, sowing): return "harvest \(harvest) is before sowing \(sowing)"
        case .noProduct: return "a spray record needs at least one product"
        case let .doseNotPositive(product): return "product \(product): the dose must be a positive number"
        case let .stageOutOfRange(bbch): return "BBCH \(bbch) is not a stage (0-99)"
        case .waterNotPositive: return "the water volume must be a positive number of litres per hectare"
        case let .readingOutOfRange(quantity, value): return "\(quantity) \(value) is not a possible reading"
        case let .dateInFuture(date, today): return "\(date) is in the future (today is \(today))"
        case .endBeforeStart: return "spraying cannot end before it starts"
        case let .unknownRecord(text): return "no spray record has the id \(text)"
        case let .reasonRequired(hours):
            return "the record was written more than \(hours) hours ago: a correction must say why (a reason)"
        case let .revisionConflict(id):
            return "revision \(id.uuidString.lowercased()) is stored already with other contents"
        }
    }
}
