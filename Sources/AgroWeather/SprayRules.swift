import Foundation

/// Thresholds for judging spray conditions, with their sources.
///
/// Every threshold can be set in the config file (the struct is Codable; missing keys keep the
/// defaults). Values are compared after rounding to one decimal, the precision they are shown
/// with, so what the user reads is what was compared. Unless said otherwise a limit belongs to
/// the better side: wind of exactly 15 km/h is still good.
///
/// Sources:
/// - [APVMA] Australian Pesticides and Veterinary Medicines Authority, standard spray drift label
///   instructions: do not apply when wind speed is below 3 km/h or above 20 km/h at the site.
/// - [GRDC-DT] GRDC fact sheet "Delta T" / Bureau of Meteorology Delta-T guide: Delta-T 2-8 °C
///   preferred, 8-10 °C marginal, above 10 °C do not spray; below 2 °C droplets last long and
///   drift (conditions often calm and inverted).
/// - [GRDC-SAM] GRDC Spray Application Manual (2025), Module 10 "Weather monitoring for spraying
///   operations": surface temperature inversions are present most nights from 1-2 h before
///   sundown until about 1 h after sunrise; do not spray under hazardous inversions. Inversions
///   are strongest with clear skies and light winds.
/// - [Stull] R. Stull, "Wet-Bulb Temperature from Relative Humidity and Air Temperature",
///   J. Appl. Meteor. Climatol. 50 (2011) 2267-2269.
/// - [WMO-8] WMO Guide to Instruments and Methods of Observation (WMO-No. 8): wind is reported at
///   10 m; terrain roughness classes (open flat terrain, grass: z0 about 0.03 m).
/// Thresholds marked "project default" have no single published figure; they are conservative
/// choices to be tuned per crop and product.
public struct SprayRules: Sendable, Hashable, Codable {
    // MARK: Wind

    /// Height of the spray release above ground, metres, where wind is judged [APVMA: "at the
    /// application site"]. Forecast wind is at 10 m and stronger than here.
    public var boomHeightMetres: Double = 1.0
    /// Roughness length of the field for the logarithmic wind profile, metres [WMO-8: 0.03 for
    /// open flat terrain with grass or low crops; about 0.1 for taller crops].
    public var roughnessLengthMetres: Double = 0.03
    /// When set, boom-height wind = 10 m wind × this factor, replacing the profile.
    public var boomWindFactor: Double? = nil
    /// Below this wind at boom height (km/h): avoid, too calm; calm air hints at an inversion
    /// and droplets hang [APVMA 3 km/h].
    public var windCalmBelowKmh: Double = 3
    /// Up to this wind (km/h): good [GRDC guidance, 3-15 km/h preferred].
    public var windGoodMaxKmh: Double = 15
    /// Up to this wind (km/h): marginal (coarser droplets, wider buffers); above: avoid [APVMA 20 km/h].
    public var windMarginalMaxKmh: Double = 20
    /// Gusts at boom height up to this (km/h) are good: gusts no stronger than the label's upper
    /// wind limit (project default, after [APVMA]).
    public var gustGoodMaxKmh: Double = 20
    /// Gusts up to this (km/h) are marginal; stronger: avoid (project default).
    public var gustMarginalMaxKmh: Double = 30

    // MARK: Rain

    /// Rain-fast period when the product has none in the catalog, hours (project default; labels
    /// commonly give 1-6 h).
    public var defaultRainfastHours: Double = 2
    /// Rain (and snow, as water) expected during the slot and the rain-fast period after it, mm:
    /// from this amount marginal (project default: the smallest amount forecasts report).
    public var rainMarginalMm: Double = 0.1
    /// From this amount avoid: enough to wash off a fresh deposit (project default).
    public var rainAvoidMm: Double = 1.0
    /// Probability of precipitation over the same period, 0...1: from this marginal (project default).
    public var precipitationProbabilityMarginal: Double = 0.3
    /// From this avoid (project default).
    public var precipitationProbabilityAvoid: Double = 0.6

    // MARK: Temperature and humidity

    /// Below this (°C) avoid: frost, plants not growing, poor uptake (project default).
    public var temperatureLowAvoidC: Double = 2
    /// Below this (°C) marginal: slow uptake of many herbicides (project default; labels often
    /// ask for 8-10 °C and rising).
    public var temperatureLowMarginalC: Double = 8
    /// Above this (°C) marginal: fast evaporation, crop stress (project default).
    public var temperatureHighMarginalC: Double = 25
    /// Above this (°C) avoid [BOM/GRDC spraying guides: avoid spraying above 28 °C].
    public var temperatureHighAvoidC: Double = 28
    /// Relative humidity below this (%) marginal: droplets shrink fast (project default; Delta-T
    /// is the better measure and usually flags the same slots).
    public var humidityMarginalBelow: Double = 50
    /// Below this (%) avoid (project default).
    public var humidityAvoidBelow: Double = 30

    // MARK: Delta-T

    /// Delta-T below this (°C): avoid [GRDC-DT: below 2, long-lived droplets drift].
    public var deltaTLowAvoidBelowC: Double = 2
    /// Delta-T up to this (°C): good [GRDC-DT 2-8].
    public var deltaTGoodMaxC: Double = 8
    /// Delta-T up to this (°C): marginal; above: avoid [GRDC-DT 8-10, >10].
    public var deltaTMarginalMaxC: Double = 10

    // MARK: Inversions

    /// Inversion period starts this many hours before sunset [GRDC-SAM: 1-2 h].
    public var inversionHoursBeforeSunset: Double = 2
    /// ... and ends this many hours after sunrise [GRDC-SAM: about 1 h].
    public var inversionHoursAfterSunrise: Double = 1
    /// In the inversion period, 10 m wind below this (km/h) counts as light [GRDC-SAM: light winds;
    /// project default figure].
    public var inversionLightWindBelowKmh: Double = 11
    /// ... and cloud cover up to this (%) as a clear sky [GRDC-SAM: clear skies; project default
    /// figure]. Light wind and clear sky: avoid; otherwise the period is marginal.
    public var inversionClearSkyMaxCloudPercent: Double = 30

    /// The project's default thresholds (see each property's source).
    public init() {}

    /// Reads any subset of the thresholds; the others keep their defaults.
    public init(from decoder: any Decoder) throws {
        // Any subset of keys may be given in the config file; the rest keep their defaults.
        self.init()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func read(_ key: CodingKeys, _ value: inout Double) throws {
            if let v = try c.decodeIfPresent(Double.self, forKey: key) { value = v }
        }
        try read(.boomHeightMetres, &boomHeightMetres)
        try read(.roughnessLengthMetres, &roughnessLengthMetres)
        boomWindFactor = try c.decodeIfPresent(Double.self, forKey: .boomWindFactor)
        try read(.windCalmBelowKmh, &windCalmBelowKmh)
        try read(.windGoodMaxKmh, &windGoodMaxKmh)
        try read(.windMarginalMaxKmh, &windMarginalMaxKmh)
        try read(.gustGoodMaxKmh, &gustGoodMaxKmh)
        try read(.gustMarginalMaxKmh, &gustMarginalMaxKmh)
        try read(.defaultRainfastHours, &defaultRainfastHours)
        try read(.rainMarginalMm, &rainMarginalMm)
        try read(.rainAvoidMm, &rainAvoidMm)
        try read(.precipitationProbabilityMarginal, &precipitationProbabilityMarginal)
        try read(.precipitationProbabilityAvoid, &precipitationProbabilityAvoid)
        try read(.temperatureLowAvoidC, &temperatureLowAvoidC)
        try read(.temperatureLowMarginalC, &temperatureLowMarginalC)
        try read(.temperatureHighMarginalC, &temperatureHighMarginalC)
        try read(.temperatureHighAvoidC, &temperatureHighAvoidC)
        try read(.humidityMarginalBelow, &humidityMarginalBelow)
        try read(.humidityAvoidBelow, &humidityAvoidBelow)
        try read(.deltaTLowAvoidBelowC, &deltaTLowAvoidBelowC)
        try read(.deltaTGoodMaxC, &deltaTGoodMaxC)
        try read(.deltaTMarginalMaxC, &deltaTMarginalMaxC)
        try read(.inversionHoursBeforeSunset, &inversionHoursBeforeSunset)
        try read(.inversionHoursAfterSunrise, &inversionHoursAfterSunrise)
        try read(.inversionLightWindBelowKmh, &inversionLightWindBelowKmh)
        try read(.inversionClearSkyMaxCloudPercent, &inversionClearSkyMaxCloudPercent)
    }

    /// Boom-height wind per 10 m wind.
    ///
    /// Logarithmic profile of a neutral surface layer: u(z) = u(10) · ln(z/z0) / ln(10/z0).
    /// With the defaults (z = 1 m, z0 = 0.03 m) this is 0.60. Stable air at night makes the real
    /// drop steeper; that case is handled by the inversion rule, not by this factor.
    public var windHeightFactor: Double {
        if let boomWindFactor { return boomWindFactor }
        let z0 = max(roughnessLengthMetres, 0.0001)
        let z = max(boomHeightMetres, z0 * 1.01)
        return log(z / z0) / log(10 / z0)
    }
}

/// Psychrometric helpers.
public enum Psychrometrics {
    /// Wet-bulb temperature (°C) from air temperature (°C) and relative humidity (%), by Stull's
    /// 2011 empirical fit at sea-level pressure. Stated accuracy about ±1 °C for RH 5-99 % and
    /// T -20-50 °C; humidity outside 5-100 % is clamped.
    public static func wetBulb(temperature t: Double, humidity: Double) -> Double {
        let rh = min(max(humidity, 5), 100)
        return t * atan(0.151977 * (rh + 8.313659).squareRoot())
            + atan(t + rh) - atan(rh - 1.676331)
            + 0.00391838 * pow(rh, 1.5) * atan(0.023101 * rh)
            - 4.686035
    }

    /// Delta-T (°C): dry bulb minus wet bulb, never below 0 (the fit can dip under 0 near saturation).
    public static func deltaT(temperature: Double, humidity: Double) -> Double {
        max(0, temperature - wetBulb(temperature: temperature, humidity: humidity))
    }
}
