import Foundation

/// The folder holding Package.swift, found from this source file's path.
public enum PackageRoot {
    public static let path: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // the file, TestSupportCore, Sources
        return url.path
    }()
}
