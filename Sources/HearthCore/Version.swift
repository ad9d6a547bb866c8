public enum HearthCoreVersion { public static let string = "0.1.0" }
