import Foundation

// Reading an archive under Apple's key first and the key Stratus wrote before second: the
// classes here write Apple's keys, and archives written before them keep decoding.

extension NSCoder {
    /// The first of `keys` that holds a string.
    func string(_ keys: String...) -> String? {
        for key in keys where containsValue(forKey: key) {
            if let text = decodeObject(of: NSString.self, forKey: key) { return text as String }
        }
        return nil
    }

    /// The first of `keys` that holds an object of `type`.
    func object<T: NSObject & NSSecureCoding>(_ type: T.Type, _ keys: String...) -> T? {
        for key in keys where containsValue(forKey: key) {
            if let object = decodeObject(of: type, forKey: key) { return object }
        }
        return nil
    }

    /// The first of `keys` that holds a number (an integer, a double or a Boolean).
    func int(_ keys: String...) -> Int? {
        for key in keys where containsValue(forKey: key) { return Int(decodeInt64(forKey: key)) }
        return nil
    }

    /// A date under Apple's key (an `NSDate`) or, from earlier archives, seconds since 1970.
    func date(_ key: String, secondsSince1970 legacyKey: String) -> Date? {
        if containsValue(forKey: key), let date = decodeObject(of: NSDate.self, forKey: key) { return date as Date }
        return containsValue(forKey: legacyKey) ? Date(timeIntervalSince1970: decodeDouble(forKey: legacyKey)) : nil
    }
}

extension NSCoder {
    /// The object under `key` (of one of `classes`) when the archive holds one: Linux's
    /// Foundation counts asking for an absent key as a decoding failure, so every optional key is
    /// asked for this way.
    func object(ofClasses classes: [AnyClass], _ key: String) -> Any? {
        containsValue(forKey: key) ? decodeObject(of: classes, forKey: key) : nil
    }

    /// The data under `key`, when there is any.
    func data(_ key: String) -> Data? {
        containsValue(forKey: key) ? decodeObject(of: NSData.self, forKey: key) as Data? : nil
    }
}
