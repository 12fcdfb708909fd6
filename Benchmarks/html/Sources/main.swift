import AgroHTML
import Foundation
print(HTMLRenderer.render(html: FileHandle.standardInput.readDataToEndOfFile(), options: HTMLRenderOptions(width: Int(CommandLine.arguments.dropFirst().first ?? "80") ?? 80)), terminator: "")
