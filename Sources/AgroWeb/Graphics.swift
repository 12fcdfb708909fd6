import AgroDomain
import AgroPresentation
import Foundation

/// A protection scheme drawn over the BBCH scale (0-99) as SVG values for the template: an
/// axis with a tick every 10 stages, one bar per stage of the scheme, and the asked-for stage
/// marked. Coordinates are in a 400-unit-wide viewBox, so the drawing scales to any screen and
/// its labels stay readable on a phone.
struct Timeline {
    var values: [String: Any]

    static let width = 400, left = 24, rowHeight = 22, top = 26

    init(scheme: ProtectionScheme, marker: Int?, strings: Localizer) {
        let scale = Double(Self.width - Self.left - 6) / 100
        func x(_ bbch: Int) -> Int { Self.left + Int((Double(bbch) * scale).rounded()) }
        let height = Self.top + scheme.stages.count * Self.rowHeight + 10
        values = [
            "width": Self.width, "height": height, "axisY": Self.top - 6, "bottom": height - 5,
            "axisFrom": Self.left, "axisTo": Self.width - 6,
            "ticks": stride(from: 0, through: 90, by: 10).map { ["x": x($0), "label": $0] },
            "bars": scheme.stages.enumerated().map { index, stage -> [String: Any] in
                let from = x(stage.bbch.from), to = max(x(stage.bbch.to + 1), from + 4)
                let y = Self.top + index * Self.rowHeight
                return [
                    "x": from, "y": y, "w": to - from, "h": Self.rowHeight - 6, "labelX": 4, "labelY": y + 12,
                    "number": index + 1, "tone": index % 6, "title": "\(stage.name) (\(strings.label(stage.bbch)))",
                ]
            },
        ]
        if let marker { values["marker"] = ["x": x(marker), "label": marker] }
    }
}

/// The regions' centres on an equirectangular map (longitude scaled by the cosine of the mean
/// latitude, so shapes keep their proportions), each a numbered dot linking to its contacts and
/// coloured by kind (region or city). Dots are nudged apart until none overlaps, and labelled
/// with the number of the list beside the map, so nothing collides or is cut off on a phone.
struct RegionMap {
    var values: [String: Any]

    static let width = 500.0, margin = 30.0, radius = 20.0

    init(regions: [Region]) {
        guard !regions.isEmpty else {
            values = ["width": Int(Self.width), "height": 160, "points": [[String: Any]]()]
            return
        }
        let latitudes = regions.map(\.centre.latitude), longitudes = regions.map(\.centre.longitude)
        let (south, north) = (latitudes.min()!, latitudes.max()!)
        let (west, east) = (longitudes.min()!, longitudes.max()!)
        let stretch = cos((south + north) / 2 * .pi / 180)
        let spanX = max((east - west) * stretch, 0.01), spanY = max(north - south, 0.01)
        let scale = (Self.width - 2 * Self.margin) / max(spanX, spanY * 1.2)
        let height = min(max(spanY * scale + 2 * Self.margin, 160), 900)
        var points = regions.map { region in
            (
                x: Self.margin + (region.centre.longitude - west) * stretch * scale,
                y: Self.margin + (north - region.centre.latitude) * scale
            )
        }
        Self.separate(&points, distance: 2 * Self.radius + 2, width: Self.width, height: height)
        values = [
            "width": Int(Self.width), "height": Int(height.rounded()), "radius": Int(Self.radius),
            "points": regions.enumerated().map { index, region -> [String: Any] in
                let x = Int(points[index].x.rounded()), y = Int(points[index].y.rounded())
                return [
                    "x": x, "y": y, "labelY": y + 7, "number": index + 1,
                    "name": region.name, "href": "/regions?region=\(Pages.percent(region.id))#contacts",
                    "city": region.kind == .city,
                ]
            },
        ]
    }

    /// Pushes overlapping dots apart (each pair half the overlap, a few rounds), kept inside
    /// the drawing.
    static func separate(_ points: inout [(x: Double, y: Double)], distance: Double, width: Double, height: Double) {
        for _ in 0..<60 {
            var moved = false
            for i in points.indices {
                for j in points.indices where j > i {
                    var dx = points[j].x - points[i].x, dy = points[j].y - points[i].y
                    var gap = (dx * dx + dy * dy).squareRoot()
                    guard gap < distance else { continue }
                    if gap < 0.01 { (dx, dy, gap) = (1, 0, 1) }
                    let push = (distance - gap) / 2
                    points[i].x -= dx / gap * push; points[i].y -= dy / gap * push
                    points[j].x += dx / gap * push; points[j].y += dy / gap * push
                    moved = true
                }
            }
            for i in points.indices {
                points[i].x = min(max(points[i].x, radius + 1), width - radius - 1)
                points[i].y = min(max(points[i].y, radius + 1), height - radius - 1)
            }
            if !moved { break }
        }
    }
}
