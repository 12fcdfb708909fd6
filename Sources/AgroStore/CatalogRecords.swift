import AgroDomain
import Foundation

/// A text in several languages, keyed by locale code ("ru", "en", ...).
public typealias LocalizedText = [String: String]

/// What a catalog says about itself, as written by a builder or an importer.
public struct CatalogHeader: Sendable, Hashable {
    public var identity: String
    public var version: Int
    /// ISO 8601 timestamp recorded as the build time (taken from the sources, for
    /// reproducible builds).
    public var builtAt: String
    public var locales: LocaleChain
    public var title: LocalizedText
    public var attribution: LocalizedText

    public init(
        identity: String, version: Int, builtAt: String, locales: LocaleChain,
        title: LocalizedText, attribution: LocalizedText = [:]
    ) {
        self.identity = identity
        self.version = version
        self.builtAt = builtAt
        self.locales = locales
        self.title = title
        self.attribution = attribution
    }
}

/// The rows of one catalog entity, as handed to `CatalogWriter`. Ids are stable strings.
public enum CatalogRecord {
    public struct Company: Sendable, Hashable {
        public var id: EntityID
        public var name: LocalizedText
        public init(id: EntityID, name: LocalizedText) {
            self.id = id
            self.name = name
        }
    }

    /// A coded statement (H302, P280, SP1) or a signal word ("warning", "danger").
    public struct Statement: Sendable, Hashable {
        public var code: String
        public var text: LocalizedText
        public init(code: String, text: LocalizedText) {
            self.code = code
            self.text = text
        }
    }

    public struct Substance: Sendable, Hashable {
        public var id: EntityID
        public var name: LocalizedText
        public var iupacName: String?
        public var casNumber: String?
        public var modeOfAction: ModeOfAction?
        public var description: LocalizedText
        public init(
            id: EntityID, name: LocalizedText, iupacName: String? = nil, casNumber: String? = nil,
            modeOfAction: ModeOfAction? = nil, description: LocalizedText = [:]
        ) {
            self.id = id
            self.name = name
            self.iupacName = iupacName
            self.casNumber = casNumber
            self.modeOfAction = modeOfAction
            self.description = description
        }
    }

    /// A resistance-management limit of a mode-of-action group (schema 2).
    public struct GroupLimit: Sendable, Hashable {
        /// The source entry's id (for messages; not stored).
        public var id: String
        public var limit: AgroDomain.GroupLimit
        public init(id: String, _ limit: AgroDomain.GroupLimit) {
            self.id = id
            self.limit = limit
        }
    }

    /// Two products not to be mixed in one tank, and why (schema 2).
    public struct TankIncompatibility: Sendable, Hashable {
        public var id: EntityID
        public var productID: EntityID
        public var otherID: EntityID
        public var reason: LocalizedText
        public init(id: EntityID, productID: EntityID, otherID: EntityID, reason: LocalizedText) {
            self.id = id
            self.productID = productID
            self.otherID = otherID
            self.reason = reason
        }
    }

    public struct GrowthStage: Sendable, Hashable {
        public var bbch: BBCHRange
        public var name: LocalizedText
        public init(bbch: BBCHRange, name: LocalizedText) {
            self.bbch = bbch
            self.name = name
        }
    }

    public struct Culture: Sendable, Hashable {
        public var id: EntityID
        public var name: LocalizedText
        public var latinName: String?
        public var description: LocalizedText
        public var parentIDs: [EntityID]
        public var stages: [GrowthStage]
        public init(
            id: EntityID, name: LocalizedText, latinName: String? = nil, description: LocalizedText = [:],
            parentIDs: [EntityID] = [], stages: [GrowthStage] = []
        ) {
            self.id = id
            self.name = name
            self.latinName = latinName
            self.description = description
            self.parentIDs = parentIDs
            self.stages = stages
        }
    }

    public struct Pest: Sendable, Hashable {
        public var id: EntityID
        public var kind: PestKind
        public var latinName: String?
        public var name: LocalizedText
        public var description: LocalizedText
        public var images: [String]
        public init(
            id: EntityID, kind: PestKind, latinName: String? = nil, name: LocalizedText,
            description: LocalizedText = [:], images: [String] = []
        ) {
            self.id = id
            self.kind = kind
            self.latinName = latinName
            self.name = name
            self.description = description
            self.images = images
        }
    }

    public struct Ingredient: Sendable, Hashable {
        public var substanceID: EntityID
        public var concentration: Double?
        public var unit: String?
        public init(substanceID: EntityID, concentration: Double?, unit: String?) {
            self.substanceID = substanceID
            self.concentration = concentration
            self.unit = unit
        }
    }

    public struct Section: Sendable, Hashable {
        public var title: LocalizedText
        public var body: LocalizedText
        public init(title: LocalizedText, body: LocalizedText) {
            self.title = title
            self.body = body
        }
    }

    public struct Product: Sendable, Hashable {
        public var id: EntityID
        public var name: LocalizedText
        public var category: ProductCategory
        public var formulation: String?
        public var companyID: EntityID?
        public var registrationNumber: String?
        public var registrationExpiry: String?
        public var origin: ProductOrigin
        public var originalProductID: EntityID?
        public var soldOutDeadline: String?
        public var exhaustionDeadline: String?
        public var ingredients: [Ingredient]
        public var pictograms: [String]
        /// Code of a `Statement` holding the signal word.
        public var signalWord: String?
        /// Codes of hazard and precautionary statements.
        public var statements: [String]
        public var links: [Link]
        public var sections: [Section]
        public init(
            id: EntityID, name: LocalizedText, category: ProductCategory, formulation: String? = nil,
            companyID: EntityID? = nil, registrationNumber: String? = nil, registrationExpiry: String? = nil,
            origin: ProductOrigin = .registered, originalProductID: EntityID? = nil,
            soldOutDeadline: String? = nil, exhaustionDeadline: String? = nil,
            ingredients: [Ingredient] = [], pictograms: [String] = [], signalWord: String? = nil,
            statements: [String] = [], links: [Link] = [], sections: [Section] = []
        ) {
            self.id = id
            self.name = name
            self.category = category
            self.formulation = formulation
            self.companyID = companyID
            self.registrationNumber = registrationNumber
            self.registrationExpiry = registrationExpiry
            self.origin = origin
            self.originalProductID = originalProductID
            self.soldOutDeadline = soldOutDeadline
            self.exhaustionDeadline = exhaustionDeadline
            self.ingredients = ingredients
            self.pictograms = pictograms
            self.signalWord = signalWord
            self.statements = statements
            self.links = links
            self.sections = sections
        }
    }

    public struct Obligation: Sendable, Hashable {
        public var id: EntityID
        public var text: LocalizedText
        public init(id: EntityID, text: LocalizedText) {
            self.id = id
            self.text = text
        }
    }

    public struct Use: Sendable, Hashable {
        public var id: EntityID
        public var productID: EntityID
        public var cultureIDs: [EntityID]
        public var pests: [Target]
        public var dose: Dose
        public var water: Dose
        public var preHarvestIntervalDays: Int?
        public var maxApplications: Int?
        public var intervalDays: Int?
        public var bbch: BBCHRange?
        public var applicationArea: LocalizedText
        public var notes: LocalizedText
        public var obligationIDs: [EntityID]
        public init(
            id: EntityID, productID: EntityID, cultureIDs: [EntityID], pests: [Target],
            dose: Dose, water: Dose = Dose(from: nil, to: nil, unit: nil), preHarvestIntervalDays: Int? = nil,
            maxApplications: Int? = nil, intervalDays: Int? = nil, bbch: BBCHRange? = nil,
            applicationArea: LocalizedText = [:], notes: LocalizedText = [:], obligationIDs: [EntityID] = []
        ) {
            self.id = id
            self.productID = productID
            self.cultureIDs = cultureIDs
            self.pests = pests
            self.dose = dose
            self.water = water
            self.preHarvestIntervalDays = preHarvestIntervalDays
            self.maxApplications = maxApplications
            self.intervalDays = intervalDays
            self.bbch = bbch
            self.applicationArea = applicationArea
            self.notes = notes
            self.obligationIDs = obligationIDs
        }
    }

    /// A pest targeted by a use, and how well.
    public struct Target: Sendable, Hashable {
        public var pestID: EntityID
        public var effect: PestEffect
        public init(pestID: EntityID, effect: PestEffect = .full) {
            self.pestID = pestID
            self.effect = effect
        }
    }

    public struct SchemeTreatment: Sendable, Hashable {
        public var productID: EntityID
        public var dose: Dose
        public var pestIDs: [EntityID]
        public var note: LocalizedText
        public init(productID: EntityID, dose: Dose, pestIDs: [EntityID] = [], note: LocalizedText = [:]) {
            self.productID = productID
            self.dose = dose
            self.pestIDs = pestIDs
            self.note = note
        }
    }

    public struct SchemeStage: Sendable, Hashable {
        public var bbch: BBCHRange
        public var name: LocalizedText
        public var treatments: [SchemeTreatment]
        public init(bbch: BBCHRange, name: LocalizedText, treatments: [SchemeTreatment]) {
            self.bbch = bbch
            self.name = name
            self.treatments = treatments
        }
    }

    public struct Scheme: Sendable, Hashable {
        public var id: EntityID
        public var cultureID: EntityID
        public var title: LocalizedText
        public var description: LocalizedText
        public var stages: [SchemeStage]
        public init(
            id: EntityID, cultureID: EntityID, title: LocalizedText, description: LocalizedText = [:],
            stages: [SchemeStage]
        ) {
            self.id = id
            self.cultureID = cultureID
            self.title = title
            self.description = description
            self.stages = stages
        }
    }

    public struct Region: Sendable, Hashable {
        public var id: EntityID
        public var kind: AgroDomain.Region.Kind
        public var name: LocalizedText
        public var centreName: LocalizedText
        public var centre: Coordinates
        public init(
            id: EntityID, kind: AgroDomain.Region.Kind, name: LocalizedText, centreName: LocalizedText = [:],
            centre: Coordinates
        ) {
            self.id = id
            self.kind = kind
            self.name = name
            self.centreName = centreName
            self.centre = centre
        }
    }

    public struct Representative: Sendable, Hashable {
        public var id: EntityID
        public var regionID: EntityID
        public var name: LocalizedText
        public var position: LocalizedText
        public var phone: String?
        public var email: String?
        public var photo: String?
        public var location: Coordinates?
        public init(
            id: EntityID, regionID: EntityID, name: LocalizedText, position: LocalizedText = [:],
            phone: String? = nil, email: String? = nil, photo: String? = nil, location: Coordinates? = nil
        ) {
            self.id = id
            self.regionID = regionID
            self.name = name
            self.position = position
            self.phone = phone
            self.email = email
            self.photo = photo
            self.location = location
        }
    }

    public struct Distributor: Sendable, Hashable {
        public var id: EntityID
        public var regionID: EntityID
        public var name: LocalizedText
        public var address: LocalizedText
        public var phone: String?
        public var email: String?
        public var website: String?
        public init(
            id: EntityID, regionID: EntityID, name: LocalizedText, address: LocalizedText = [:],
            phone: String? = nil, email: String? = nil, website: String? = nil
        ) {
            self.id = id
            self.regionID = regionID
            self.name = name
            self.address = address
            self.phone = phone
            self.email = email
            self.website = website
        }
    }

    public struct News: Sendable, Hashable {
        public var id: EntityID
        public var kind: NewsKind
        public var date: String
        public var title: LocalizedText
        public var summary: LocalizedText
        public var bodyHTML: LocalizedText
        public var image: String?
        public var source: String?
        public init(
            id: EntityID, kind: NewsKind, date: String, title: LocalizedText, summary: LocalizedText = [:],
            bodyHTML: LocalizedText, image: String? = nil, source: String? = nil
        ) {
            self.id = id
            self.kind = kind
            self.date = date
            self.title = title
            self.summary = summary
            self.bodyHTML = bodyHTML
            self.image = image
            self.source = source
        }
    }
}
