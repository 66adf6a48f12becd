// The digit reader trained when this binary was built (DigitModelPlugin), and the fonts it
// was trained on.

import Foundation
import GridlockDigits

public enum TrainedDigitModel {
    /// Empty when no training font was installed at build time.
    public static let model: DigitModel = {
        // Written by this build's own trainer: a model that does not read back is a bug, not input.
        guard let data = Data(base64Encoded: trainedDigitModelBase64) else { fatalError("the compiled-in digit model is not base64") }
        do { return try DigitModel(serialized: Array(data)) } catch { fatalError("the compiled-in digit model is damaged: \(error)") }
    }()

    /// The font files' names (without folders).
    public static let fontFiles: [String] = trainedDigitFontFiles

    /// What to install when the model is empty.
    public static let missingFontsAdvice = "this gridlock was built without any of the fonts its digit reader trains on; install Debian's fonts-dejavu-core, fonts-dejavu-extra and fonts-liberation and build it again"
}
