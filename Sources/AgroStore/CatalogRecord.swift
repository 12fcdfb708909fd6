import AgroDomain
import Foundation

/// A text in several languages, keyed by locale code ("ru", "en", ...).
public typealias LocalizedText = [String: String]

/// What a catalog says about itself, as written by a builder or an importer.
public struct CatalogHeader: Sendable, Hashable {
    /// Whose catalog this is ("kz.demo.agro", "ch.blv.srppp"); versions compare only within one identity.
    public var identity: String
    /// The catalog's version, increasing with every publication of the identity.
    public var version: Int
    /// ISO 8601 timestamp recorded as the build time (taken from the sources, for
    /// reproducible builds).
    public var builtAt: String
    /// The locales the texts come in, with their fallbacks.
    public var locales: LocaleChain
    /// The catalog's title by locale.
    public var title: LocalizedText
    /// Where the data comes from, by locale (licence, source).
    public var attribution: LocalizedText

    /// A header; `builtAt` should come from the sources, not the clock, so builds are reproducible.
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
    /// A company: registrant, manufacturer or the catalog's own.
    public struct Company: Sendable, Hashable {
        /// Stable id.
        public var id: EntityID
        /// Name by locale.
        public var name: LocalizedText
        /// A company record.
        public init(id: EntityID, name: LocalizedText) {
            self.id = id
            self.name = name
        }
    }

    /// A coded statement (H302, P280, SP1) or a signal word ("warning", "danger").
    public struct Statement: Sendable, Hashable {
        /// The code ("H302", "P280", or a signal word's code).
        public var code: String
        /// Its wording by locale.
        public var text: LocalizedText
        /// A statement record.
        public init(code: String, text: LocalizedText) {
            self.code = code
            self.text = text
        }
    }

    /// An active substance.
    public struct Substance: Sendable, Hashable {
        /// Stable id.
        public var id: EntityID
        /// Common name by locale.
        public var name: LocalizedText
        /// IUPAC name.
        public var iupacName: String?
        /// CAS registry number.
        public var casNumber: String?
        /// HRAC, FRAC or IRAC group.
        public var modeOfAction: ModeOfAction?
        /// Description by locale.
        public var description: LocalizedText
        /// A substance record.
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
        /// The limit itself, as the decision rules read it.
        public var limit: AgroDomain.GroupLimit
        /// Creates a limit record from its source entry's id and the limit.
        public init(id: String, _ limit: AgroDomain.GroupLimit) {
            self.id = id
            self.limit = limit
        }
    }

    /// Two products not to be mixed in one tank, and why (schema 2).
    public struct TankIncompatibility: Sendable, Hashable {
        /// The source entry's id.
        public var id: EntityID
        /// One of the two products.
        public var productID: EntityID
        /// The other product.
        public var otherID: EntityID
        /// Why they must not be mixed, per locale.
        public var reason: LocalizedText
        /// Creates an incompatibility record.
        public init(id: EntityID, productID: EntityID, otherID: EntityID, reason: LocalizedText) {
            self.id = id
            self.productID = productID
            self.otherID = otherID
            self.reason = reason
        }
    }

    /// A named growth stage of a culture.
    public struct GrowthStage: Sendable, Hashable {
        /// The BBCH codes it spans.
        public var bbch: BBCHRange
        /// Its name by locale.
        public var name: LocalizedText
        /// A growth-stage record.
        public init(bbch: BBCHRange, name: LocalizedText) {
            self.bbch = bbch
            self.name = name
        }
    }

    /// A culture or a group of cultures; groups are cultures that others name as parents.
    public struct Culture: Sendable, Hashable {
        /// Stable id.
        public var id: EntityID
        /// Name by locale.
        public var name: LocalizedText
        /// Scientific name.
        public var latinName: String?
        /// Code in the EPPO Global Database ("TRZAW").
        public var eppoCode: String?
        /// Description by locale.
        public var description: LocalizedText
        /// The groups directly above it; the writer rejects cycles.
        public var parentIDs: [EntityID]
        /// Its growth stages.
        public var stages: [GrowthStage]
        /// A culture record.
        public init(
            id: EntityID, name: LocalizedText, latinName: String? = nil, eppoCode: String? = nil,
            description: LocalizedText = [:], parentIDs: [EntityID] = [], stages: [GrowthStage] = []
        ) {
            self.id = id
            self.name = name
            self.latinName = latinName
            self.eppoCode = eppoCode
            self.description = description
            self.parentIDs = parentIDs
            self.stages = stages
        }
    }

    /// A pest: weed, disease, insect, ...
    public struct Pest: Sendable, Hashable {
        /// Stable id.
        public var id: EntityID
        /// Weed, disease, insect, ...
        public var kind: PestKind
        /// Scientific name.
        public var latinName: String?
        /// Code in the EPPO Global Database ("SEPTTR").
        public var eppoCode: String?
        /// Name by locale.
        public var name: LocalizedText
        /// Description by locale.
        public var description: LocalizedText
        /// Paths or URLs of pictures.
        public var images: [String]
        /// A pest record.
        public init(
            id: EntityID, kind: PestKind, latinName: String? = nil, eppoCode: String? = nil, name: LocalizedText,
            description: LocalizedText = [:], images: [String] = []
        ) {
            self.id = id
            self.kind = kind
            self.latinName = latinName
            self.eppoCode = eppoCode
            self.name = name
            self.description = description
            self.images = images
        }
    }

    /// A substance in a product at a concentration.
    public struct Ingredient: Sendable, Hashable {
        /// The substance's id.
        public var substanceID: EntityID
        /// Concentration in `unit`.
        public var concentration: Double?
        /// "g/l", "g/kg", "%", ...
        public var unit: String?
        /// An ingredient record.
        public init(substanceID: EntityID, concentration: Double?, unit: String?) {
            self.substanceID = substanceID
            self.concentration = concentration
            self.unit = unit
        }
    }

    /// A titled text of a product.
    public struct Section: Sendable, Hashable {
        /// Title by locale.
        public var title: LocalizedText
        /// Text by locale.
        public var body: LocalizedText
        /// A section record.
        public init(title: LocalizedText, body: LocalizedText) {
            self.title = title
            self.body = body
        }
    }

    /// A product with its ingredients, hazards, links and texts.
    public struct Product: Sendable, Hashable {
        /// Stable id.
        public var id: EntityID
        /// Trade name by locale.
        public var name: LocalizedText
        /// What it is for.
        public var category: ProductCategory
        /// Formulation code (EC, SC, ...).
        public var formulation: String?
        /// The company's id.
        public var companyID: EntityID?
        /// Registration number.
        public var registrationNumber: String?
        /// Registration expiry, ISO 8601 date.
        public var registrationExpiry: String?
        /// Own registration, sale permission or parallel import.
        public var origin: ProductOrigin
        /// The product a sale permission or parallel import derives from.
        public var originalProductID: EntityID?
        /// Last day of sale, ISO 8601 date.
        public var soldOutDeadline: String?
        /// Last day of use, ISO 8601 date.
        public var exhaustionDeadline: String?
        /// Active substances.
        public var ingredients: [Ingredient]
        /// GHS pictogram codes.
        public var pictograms: [String]
        /// Code of a `Statement` holding the signal word.
        public var signalWord: String?
        /// Codes of hazard and precautionary statements.
        public var statements: [String]
        /// Label, certificate, image and source links.
        public var links: [Link]
        /// Titled texts.
        public var sections: [Section]
        /// A product record.
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

    /// A condition of use (buffer zone, protective equipment), shared between uses.
    public struct Obligation: Sendable, Hashable {
        /// Stable id.
        public var id: EntityID
        /// Its wording by locale.
        public var text: LocalizedText
        /// An obligation record.
        public init(id: EntityID, text: LocalizedText) {
            self.id = id
            self.text = text
        }
    }

    /// A registered use: product × cultures × pests, with dose and limits.
    public struct Use: Sendable, Hashable {
        /// Stable id.
        public var id: EntityID
        /// The product's id.
        public var productID: EntityID
        /// Cultures or culture groups it is registered on.
        public var cultureIDs: [EntityID]
        /// Pests it is registered against.
        public var pests: [Target]
        /// Dose range and unit (`dose_from`, `dose_to`, `dose_unit`).
        public var dose: Dose
        /// Spray volume (`water_from`, `water_to`, `water_unit`).
        public var water: Dose
        /// Pre-harvest interval in days (`phi_days`; JSON `phiDays`).
        public var phiDays: Int?
        /// Applications per season at most (`max_applications`).
        public var maxApplications: Int?
        /// Days between two applications at least (`interval_days`; JSON `intervalDays`).
        public var intervalDays: Int?
        /// Growth-stage window (`bbch_from`, `bbch_to`).
        public var bbch: BBCHRange?
        /// Field, greenhouse, storage, ... by locale (`application_area`).
        public var applicationArea: LocalizedText
        /// Remarks by locale.
        public var notes: LocalizedText
        /// Ids of the `Obligation`s that apply.
        public var obligationIDs: [EntityID]
        /// A use record.
        public init(
            id: EntityID, productID: EntityID, cultureIDs: [EntityID], pests: [Target],
            dose: Dose, water: Dose = Dose(from: nil, to: nil, unit: nil), phiDays: Int? = nil,
            maxApplications: Int? = nil, intervalDays: Int? = nil, bbch: BBCHRange? = nil,
            applicationArea: LocalizedText = [:], notes: LocalizedText = [:], obligationIDs: [EntityID] = []
        ) {
            self.id = id
            self.productID = productID
            self.cultureIDs = cultureIDs
            self.pests = pests
            self.dose = dose
            self.water = water
            self.phiDays = phiDays
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
        /// The pest's id.
        public var pestID: EntityID
        /// How completely the use controls it.
        public var effect: PestEffect
        /// A target record.
        public init(pestID: EntityID, effect: PestEffect = .full) {
            self.pestID = pestID
            self.effect = effect
        }
    }

    /// A treatment at one stage of a scheme.
    public struct SchemeTreatment: Sendable, Hashable {
        /// The product's id.
        public var productID: EntityID
        /// The recommended dose.
        public var dose: Dose
        /// Pests aimed at.
        public var pestIDs: [EntityID]
        /// A remark by locale.
        public var note: LocalizedText
        /// A treatment record.
        public init(productID: EntityID, dose: Dose, pestIDs: [EntityID] = [], note: LocalizedText = [:]) {
            self.productID = productID
            self.dose = dose
            self.pestIDs = pestIDs
            self.note = note
        }
    }

    /// A stage of a scheme.
    public struct SchemeStage: Sendable, Hashable {
        /// The BBCH codes it spans.
        public var bbch: BBCHRange
        /// Its name by locale.
        public var name: LocalizedText
        /// What to apply.
        public var treatments: [SchemeTreatment]
        /// A stage record.
        public init(bbch: BBCHRange, name: LocalizedText, treatments: [SchemeTreatment]) {
            self.bbch = bbch
            self.name = name
            self.treatments = treatments
        }
    }

    /// A protection scheme for a culture over its growth stages.
    public struct Scheme: Sendable, Hashable {
        /// Stable id.
        public var id: EntityID
        /// The culture's id.
        public var cultureID: EntityID
        /// Title by locale.
        public var title: LocalizedText
        /// Introduction by locale.
        public var description: LocalizedText
        /// Its stages.
        public var stages: [SchemeStage]
        /// A scheme record.
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

    /// A region or city with its centre.
    public struct Region: Sendable, Hashable {
        /// Stable id ("KZ-AKM").
        public var id: EntityID
        /// Region or city.
        public var kind: AgroDomain.Region.Kind
        /// Name by locale.
        public var name: LocalizedText
        /// Name of its centre by locale.
        public var centreName: LocalizedText
        /// Coordinates of its centre.
        public var centre: Coordinates
        /// A region record.
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

    /// A representative of the catalog's company.
    public struct Representative: Sendable, Hashable {
        /// Stable id.
        public var id: EntityID
        /// The region covered.
        public var regionID: EntityID
        /// Full name by locale.
        public var name: LocalizedText
        /// Job title by locale.
        public var position: LocalizedText
        /// Phone number.
        public var phone: String?
        /// Email address.
        public var email: String?
        /// Path or URL of a photo.
        public var photo: String?
        /// Where the representative is based, if not the region's centre.
        public var location: Coordinates?
        /// A representative record.
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

    /// A distributor in a region.
    public struct Distributor: Sendable, Hashable {
        /// Stable id.
        public var id: EntityID
        /// The region served.
        public var regionID: EntityID
        /// Company name by locale.
        public var name: LocalizedText
        /// Postal address by locale.
        public var address: LocalizedText
        /// Phone number.
        public var phone: String?
        /// Email address.
        public var email: String?
        /// Website URL.
        public var website: String?
        /// A distributor record.
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

    /// A news item or article.
    public struct News: Sendable, Hashable {
        /// Stable id (a slug).
        public var id: EntityID
        /// News or article.
        public var kind: NewsKind
        /// Publication date, ISO 8601.
        public var date: String
        /// Title by locale.
        public var title: LocalizedText
        /// Summary by locale.
        public var summary: LocalizedText
        /// Body HTML by locale.
        public var bodyHTML: LocalizedText
        /// Path or URL of a lead image.
        public var image: String?
        /// Where the item was first published.
        public var source: String?
        /// A news record.
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
