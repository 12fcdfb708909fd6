import AgroDomain

/// What the program prints and returns for an error: the documented exit status and one line
/// in the interface language.
package struct ErrorReport: Sendable, Equatable {
    package var status: ExitStatus
    package var message: String

    package init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }
}

/// Gives the errors of some library types their exit status and their wording.
///
/// One exhaustive switch per error type, each case a row: its status and its message key
/// `error.<Type>.<case>` in `Localizable/<lang>.json`, with the case's values as `{0}`, `{1}`, ...
/// A case added to a library does not compile until it has its row here.
package protocol ErrorWording: Sendable {
    /// The report for `error`; nil when it is none of this wording's types. `spelling`: how
    /// the front that received the request names its parameters (`--letter`, `letter=`).
    func report(_ error: any Error, strings: Localizer, spelling: ParameterSpelling) -> ErrorReport?
}

package extension ErrorWording {
    /// The report for a command line's error.
    func report(_ error: any Error, strings: Localizer) -> ErrorReport? {
        report(error, strings: strings, spelling: .commandLine)
    }
}

/// An error the program defines itself: it has its status and its words already.
package protocol CommandError: UserFacingError {
    var exitStatus: ExitStatus { get }
}

/// The errors of AgroDomain and the store's (described as an `ErrorCase`, in `statuses`): all a
/// catalog query can meet.
package struct CatalogErrorWording: ErrorWording {
    package init() {}

    package func report(_ error: any Error, strings: Localizer, spelling: ParameterSpelling) -> ErrorReport? {
        switch error {
        case let error as RequestError: return ErrorReport(.usage, error.text(spelling) { strings($0, arguments: $1) })
        case let error as UsageError: return ErrorReport(.usage, error.text { strings($0, arguments: $1) })
        case let error as SchemeError: return Self.report(error, strings)
        case let error as CatalogError: return Self.report(error, strings)
        case let error as CoordinateError: return Self.report(error, strings)
        case let error as JournalError: return Self.report(error, strings)
        case let error as FarmError: return Self.report(error, strings)
        // A tank's numbers and a plan file are bad usage.
        case let error as TankError: return ErrorReport(.usage, Self.text(error.kind, strings, spelling))
        case let error as PlanFileError:
            return ErrorReport(.usage, strings("error.PlanFileError", Self.text(error.kind, strings)))
        case let error as SearchQueryError:
            return ErrorReport(.usage, strings("error.SearchQueryError", error.maximumWords, error.maximumLength))
        case let error as any DescribedError:
            let errorCase = error.errorCase
            guard let status = Self.statuses[errorCase.type]?[errorCase.name] else { return nil }
            return ErrorReport(status, strings(errorCase.key, arguments: errorCase.arguments))
        default: return nil
        }
    }

    /// The exit status of every case of the store's errors (docs/cli.md, "Exit status"); they
    /// come as `ErrorCase`s, so this module does not import the store.
    package static let statuses: [String: [String: ExitStatus]] = [
        "CatalogSelectionError": ["noCatalog": .catalogUnavailable],
        "UserStoreError": ["unusable": .ioError, "cannotWrite": .cannotWrite],
        "CatalogWriterError": ["cultureCycle": .badContent, "cannotWrite": .cannotWrite],
    ]

    static func report(_ error: CatalogError, _ s: Localizer) -> ErrorReport {
        func list(_ matches: [EntityRef]) -> String { matches.map { "\($0.name) (\($0.id))" }.joined(separator: ", ") }
        switch error {
        case let .notFound(kind, id):
            return ErrorReport(.notFound, s("error.CatalogError.notFound", s("kind.\(kind.rawValue)"), id))
        case let .ambiguous(kind, text, candidates):
            return ErrorReport(.ambiguous, s("error.CatalogError.ambiguous", text, s("kinds.\(kind.rawValue)"), list(candidates)))
        case let .unknownName(kind, text, suggestions) where suggestions.isEmpty:
            return ErrorReport(.notFound, s("error.CatalogError.unknownName", s("kind.\(kind.rawValue)"), text))
        case let .unknownName(kind, text, suggestions):
            return ErrorReport(
                .notFound, s("error.CatalogError.unknownName.closest", s("kind.\(kind.rawValue)"), text, list(suggestions)))
        case let .missing(path):
            return ErrorReport(.catalogUnavailable, s("error.CatalogError.missing", path))
        case let .corrupt(path, reason):
            return ErrorReport(.catalogUnavailable, s("error.CatalogError.corrupt", path, reason))
        case let .schemaTooNew(path, found, supported):
            return ErrorReport(.catalogTooNew, s("error.CatalogError.schemaTooNew", path, found, supported))
        }
    }

    static func report(_ error: SchemeError, _ s: Localizer) -> ErrorReport {
        switch error {
        case let .none(culture, available):
            return ErrorReport(.notFound, s("error.SchemeError.none", culture, available.joined(separator: ", ")))
        }
    }

    package static func text(_ kind: TankError.Kind, _ s: Localizer, _ spelling: ParameterSpelling) -> String {
        // The values echo what was typed after an option: the language's decimal sign, no grouping.
        let typed = { (value: Double) in s.decimal(value.plainText) }
        // Named as the front that took them names them: `--area` or `area=`.
        func p(_ parameter: Parameter) -> String { parameter.spelled(spelling) }
        switch kind {
        case let .notPositive(option, value):
            return s("error.TankError.notPositive", Parameter(rawValue: option).map(p) ?? option, typed(value))
        case .noProduct: return s("error.TankError.noProduct", p(.product))
        case let .tooManyLoads(area, water, tank):
            return s(
                "error.TankError.tooManyLoads", typed(area), typed(water), typed(TankPlan.maximumLoads), typed(tank))
        case let .doseNotPositive(product, dose): return s("error.TankError.doseNotPositive", product, typed(dose))
        case let .notPerHectare(unit): return s("error.TankError.notPerHectare", unit)
        case .doseCountMismatch: return s("error.TankError.doseCountMismatch", p(.dose), p(.product))
        case .unitCountMismatch: return s("error.TankError.unitCountMismatch", p(.unit), p(.product))
        case let .doseOutsideRange(product, dose, unit, registered):
            return s(
                "error.TankError.doseOutsideRange", s.label(Dose(from: dose, to: nil, unit: unit)), product,
                registered.map(s.label).joined(separator: " \(s("finding.or")) "))
        case .notComputable:
            return s("error.TankError.notComputable", p(.area), p(.water), p(.tank))
        }
    }

    static func text(_ kind: PlanFileError.Kind, _ s: Localizer) -> String {
        func at(_ path: [String]) -> String { path.isEmpty ? "" : s("error.PlanFileError.at", path.joined(separator: " ")) }
        switch kind {
        case .invalidJSON: return s("error.PlanFileError.invalidJSON")
        case let .malformed(detail, path): return s("error.PlanFileError.malformed", detail, at(path))
        case let .missingKey(key, path): return s("error.PlanFileError.missingKey", key, at(path))
        case let .wrongType(path): return s("error.PlanFileError.wrongType", at(path))
        case let .missingValue(path): return s("error.PlanFileError.missingValue", at(path))
        case let .notAPlan(detail): return s("error.PlanFileError.notAPlan", detail)
        case .emptyCulture: return s("error.PlanFileError.emptyCulture")
        case .areaNotPositive: return s("error.PlanFileError.areaNotPositive")
        case .noApplications: return s("error.PlanFileError.noApplications")
        case let .harvestBeforeSowing(harvest, sowing): return s("error.PlanFileError.harvestBeforeSowing", harvest, sowing)
        case let .doseNotPositive(application): return s("error.PlanFileError.doseNotPositive", application)
        case let .stageOutOfRange(application, bbch): return s("error.PlanFileError.stageOutOfRange", application, bbch)
        case .emptyFile: return s("error.PlanFileError.emptyFile")
        case let .missingColumn(column): return s("error.PlanFileError.missingColumn", column)
        case let .notANumber(line, column, text): return s("error.PlanFileError.notANumber", line, column, text)
        case let .notADate(line, column, text): return s("error.PlanFileError.notADate", line, column, text)
        case let .missingField(line, column): return s("error.PlanFileError.missingField", line, column)
        case let .notAStage(line, text): return s("error.PlanFileError.notAStage", line, text)
        case let .tooManyApplications(count, maximum):
            return s("error.PlanFileError.tooManyApplications", s.number(Double(count)), s.number(Double(maximum)))
        }
    }

    static func report(_ error: CoordinateError, _ s: Localizer) -> ErrorReport {
        switch error {
        case let .badFormat(text):
            return ErrorReport(.usage, s("error.CoordinateError.badFormat", text))
        case let .notANumber(part, what):
            return ErrorReport(.usage, s("error.CoordinateError.notANumber", part, s("coordinate.\(what)")))
        case let .latitudeOutOfRange(value):
            return ErrorReport(.usage, s("error.CoordinateError.latitudeOutOfRange", value.plainText))
        case let .longitudeOutOfRange(value):
            return ErrorReport(.usage, s("error.CoordinateError.longitudeOutOfRange", value.plainText))
        }
    }

    static func report(_ error: JournalError, _ s: Localizer) -> ErrorReport {
        let number = { (value: Double) in s.decimal(value.plainText) }
        switch error {
        case let .unknownField(text): return ErrorReport(.notFound, s("error.JournalError.unknownField", text))
        case let .fieldNameTaken(name): return ErrorReport(.usage, s("error.JournalError.fieldNameTaken", name))
        case .emptyFieldName: return ErrorReport(.usage, s("error.JournalError.emptyFieldName"))
        case .areaNotPositive: return ErrorReport(.usage, s("error.JournalError.areaNotPositive"))
        case let .areaLargerThanField(treated, field):
            return ErrorReport(.usage, s("error.JournalError.areaLargerThanField", number(treated), number(field)))
        case let .harvestBeforeSowing(harvest, sowing):
            return ErrorReport(.usage, s("error.JournalError.harvestBeforeSowing", harvest, sowing))
        case .noProduct: return ErrorReport(.usage, s("error.JournalError.noProduct"))
        case let .doseNotPositive(product): return ErrorReport(.usage, s("error.JournalError.doseNotPositive", product))
        case let .stageOutOfRange(bbch): return ErrorReport(.usage, s("error.JournalError.stageOutOfRange", bbch))
        case .waterNotPositive: return ErrorReport(.usage, s("error.JournalError.waterNotPositive"))
        case let .readingOutOfRange(quantity, value):
            return ErrorReport(
                .usage, s("error.JournalError.readingOutOfRange", s("journal.weather.\(quantity)"), number(value)))
        case let .dateInFuture(date, today): return ErrorReport(.usage, s("error.JournalError.dateInFuture", date, today))
        case .endBeforeStart: return ErrorReport(.usage, s("error.JournalError.endBeforeStart"))
        case let .unknownRecord(text): return ErrorReport(.notFound, s("error.JournalError.unknownRecord", text))
        case let .reasonRequired(hours): return ErrorReport(.usage, s("error.JournalError.reasonRequired", hours))
        case let .revisionConflict(id):
            return ErrorReport(.usage, s("error.JournalError.revisionConflict", id.uuidString.lowercased()))
        }
    }

    static func report(_ error: FarmError, _ s: Localizer) -> ErrorReport {
        switch error {
        case let .unknownFarm(name): return ErrorReport(.notFound, s("error.FarmError.unknownFarm", name))
        case let .farmNameTaken(name): return ErrorReport(.usage, s("error.FarmError.farmNameTaken", name))
        case let .loginTaken(login): return ErrorReport(.usage, s("error.FarmError.loginTaken", login))
        case let .unknownAccount(login): return ErrorReport(.notFound, s("error.FarmError.unknownAccount", login))
        case let .invalidName(name): return ErrorReport(.usage, s("error.FarmError.invalidName", name))
        case let .passwordTooShort(minimum): return ErrorReport(.usage, s("error.FarmError.passwordTooShort", minimum))
        case .signInRefused: return ErrorReport(.notSignedIn, s("error.FarmError.signInRefused"))
        case let .tooManyAttempts(seconds):
            return ErrorReport(.tooManyAttempts, s("error.FarmError.tooManyAttempts", seconds))
        case .signInRequired: return ErrorReport(.notSignedIn, s("error.FarmError.signInRequired"))
        case let .notAllowed(role):
            return ErrorReport(.notAllowed, s("error.FarmError.notAllowed", s("farm.role.\(role.rawValue)")))
        case let .batchTooLarge(count, maximum):
            return ErrorReport(.batchTooLarge, s("error.FarmError.batchTooLarge", count, maximum))
        case let .malformedChange(position, reason):
            return ErrorReport(.usage, s("error.FarmError.malformedChange", position, reason))
        case let .sinceBeyondLast(since, last):
            return ErrorReport(.usage, s("error.FarmError.sinceBeyondLast", since, last))
        case .crossSite: return ErrorReport(.notAllowed, s("error.FarmError.crossSite"))
        case let .storeUnavailable(reason):
            return ErrorReport(.journalUnavailable, s("error.FarmError.storeUnavailable", reason))
        }
    }
}
