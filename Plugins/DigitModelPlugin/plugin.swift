// Trains the Sudoku digit reader when Gridlock is built: gridlock-train-digits draws the digits
// 1-9 of the fonts below (those installed; scripts/setup installs them) and compiles the model
// into GridlockDigitModel. No model is downloaded or kept in git: it is rebuilt from the fonts.
//
// The fonts are the build's inputs, so installing or updating one trains the model again.
// Other installed fonts (FreeFont, URW's base 35) are kept out on purpose: the tests read grids
// printed in them, to measure the reader on typefaces it has never seen.

import Foundation
import PackagePlugin

@main
struct DigitModelPlugin: BuildToolPlugin {
    static let trainingFonts = [
        "truetype/dejavu/DejaVuSans.ttf", "truetype/dejavu/DejaVuSans-Bold.ttf",
        "truetype/dejavu/DejaVuSansMono.ttf", "truetype/dejavu/DejaVuSansMono-Bold.ttf",
        "truetype/dejavu/DejaVuSerif.ttf", "truetype/dejavu/DejaVuSerif-Bold.ttf",
        "truetype/dejavu/DejaVuSans-Oblique.ttf", "truetype/dejavu/DejaVuSansCondensed.ttf",
        "truetype/dejavu/DejaVuSerif-Italic.ttf", "truetype/dejavu/DejaVuSerifCondensed-Bold.ttf",
        "truetype/liberation/LiberationSans-Regular.ttf", "truetype/liberation/LiberationSans-Bold.ttf",
        "truetype/liberation/LiberationSans-Italic.ttf", "truetype/liberation/LiberationSerif-Regular.ttf",
        "truetype/liberation/LiberationSerif-Bold.ttf", "truetype/liberation/LiberationSerif-Italic.ttf",
        "truetype/liberation/LiberationMono-Regular.ttf", "truetype/liberation/LiberationMono-Bold.ttf",
        "truetype/liberation/LiberationSansNarrow-Regular.ttf", "truetype/liberation/LiberationSansNarrow-Bold.ttf",
        "truetype/noto/NotoSans-Regular.ttf", "truetype/noto/NotoSans-Italic.ttf",
        "truetype/noto/NotoSerif-Regular.ttf", "truetype/noto/NotoSerif-Italic.ttf",
        "truetype/lato/Lato-Regular.ttf", "truetype/lato/Lato-Bold.ttf", "truetype/lato/Lato-Light.ttf", "truetype/lato/Lato-Black.ttf",
        "truetype/open-sans/OpenSans-Regular.ttf", "truetype/open-sans/OpenSans-Bold.ttf",
        "truetype/open-sans/OpenSans-Light.ttf", "truetype/open-sans/OpenSans-CondBold.ttf",
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf", "truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf",
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Light.ttf", "truetype/roboto/unhinted/RobotoCondensed-Regular.ttf",
        "truetype/crosextra/Caladea-Regular.ttf", "truetype/crosextra/Caladea-Bold.ttf",
        "truetype/crosextra/Carlito-Regular.ttf", "truetype/crosextra/Carlito-Bold.ttf",
        "opentype/cantarell/Cantarell-Regular.otf", "opentype/cantarell/Cantarell-Bold.otf",
        "opentype/linux-libertine/LinLibertine_R.otf", "opentype/linux-libertine/LinLibertine_RB.otf",
        "opentype/linux-libertine/LinBiolinum_R.otf", "truetype/gentium/Gentium-R.ttf",
        "truetype/charis/CharisSIL-Regular.ttf", "truetype/charis/CharisSIL-Bold.ttf",
        "fonts-go/Go-Regular.ttf", "fonts-go/Go-Bold.ttf", "fonts-go/Go-Mono.ttf",
        "truetype/hack/Hack-Regular.ttf", "truetype/inconsolata/Inconsolata.otf",
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "TrainedDigits.swift")
        let fonts = Self.trainingFonts
            .map { URL(fileURLWithPath: "/usr/share/fonts/" + $0) }
            .filter { FileManager.default.fileExists(atPath: $0.path(percentEncoded: false)) }
        if fonts.count < Self.trainingFonts.count {
            Diagnostics.warning("only \(fonts.count) of the \(Self.trainingFonts.count) fonts the Sudoku digit reader trains on are installed (scripts/setup installs them): it will read printed digits less well" + (fonts.isEmpty ? ", in fact not at all" : ""))
        }
        let trainer = try context.tool(named: "gridlock-train-digits")
        return [
            .buildCommand(
                displayName: "Training the Sudoku digit reader on \(fonts.count) installed fonts",
                executable: trainer.url,
                arguments: [output.path(percentEncoded: false)] + fonts.map { $0.path(percentEncoded: false) },
                inputFiles: fonts,
                outputFiles: [output])
        ]
    }
}
