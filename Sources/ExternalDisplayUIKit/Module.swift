#if canImport(UIKit)
import UIKit
#endif
