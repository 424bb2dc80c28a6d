/// A strict reader of Prometheus's text exposition format 0.0.4, written from its
/// specification (https://prometheus.io/docs/instrumenting/exposition_formats/), apart
/// from the writer it checks: every line is a `# HELP`, a `# TYPE` or a sample; every
/// family has both comment lines before its samples, which all follow together; names,
/// label names and escapes are as the format allows; values parse as floats; a
/// histogram's buckets ascend in `le`, are cumulative and end with `+Inf`, whose count
/// is `_count`'s, beside a `_sum`. Anything else throws, naming the line.
public struct PrometheusText {
    public struct Sample: Equatable, Sendable {
        public var name: String
        public var labels: [String: String]
        public var value: Double
    }

    public struct Family: Sendable {
        public var name: String
        public var type: String
        public var help: String
        public var samples: [Sample]
    }

    public struct Invalid: Error, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// Every family, in the order written.
    public private(set) var families: [Family] = []

    public init(_ text: String) throws {
        guard text.isEmpty || text.hasSuffix("\n") else { throw Invalid(line: 0, reason: "the text does not end with a line feed") }
        var closed: Set<String> = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
            let number = offset + 1
            func invalid(_ reason: String) -> Invalid { Invalid(line: number, reason: "\(reason): \(line)") }
            if line.hasPrefix("# HELP ") {
                let rest = line.dropFirst("# HELP ".count)
                let name = String(rest.prefix { $0 != " " })
                guard Self.isMetricName(name), rest.count > name.count else { throw invalid("a malformed HELP") }
                guard !closed.contains(name), families.allSatisfy({ $0.name != name }) else { throw invalid("a second HELP") }
                if let last = families.last { closed.insert(last.name) }
                families.append(
                    Family(name: name, type: "", help: try Self.unescape(rest.dropFirst(name.count + 1), quotes: false, line: number), samples: []))
            } else if line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst("# TYPE ".count).split(separator: " ", omittingEmptySubsequences: false)
                guard parts.count == 2, let last = families.last, last.name == parts[0], last.type.isEmpty, last.samples.isEmpty,
                    ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[1])
                else { throw invalid("a TYPE that does not follow its family's HELP") }
                families[families.count - 1].type = String(parts[1])
            } else if line.hasPrefix("#") || line.isEmpty {
                throw invalid("a line this writer never writes")
            } else {
                guard let family = families.last, !family.type.isEmpty else { throw invalid("a sample before any TYPE") }
                let sample = try Self.sample(line, line: number)
                guard Self.belongs(sample.name, to: family) else { throw invalid("a sample of another family than \(family.name)") }
                families[families.count - 1].samples.append(sample)
            }
        }
        for family in families {
            guard !family.type.isEmpty else { throw Invalid(line: 0, reason: "\(family.name) has no TYPE") }
            if family.type == "counter", !family.name.hasSuffix("_total") {
                throw Invalid(line: 0, reason: "the counter \(family.name) does not end in _total")
            }
            if family.type == "histogram" { try Self.checkHistogram(family) }
        }
    }

    public func family(_ name: String) -> Family? {
        families.first { $0.name == name }
    }

    /// The value of the sample named `name` whose labels include `labels` (nil when no sample is).
    public func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        allSamples.first { sample in sample.name == name && Self.includes(sample, labels) }?.value
    }

    /// The sum of the samples named `name` whose labels include `labels` (0 when none is).
    public func sum(_ name: String, _ labels: [String: String] = [:]) -> Double {
        allSamples.filter { sample in sample.name == name && Self.includes(sample, labels) }.reduce(0) { $0 + $1.value }
    }

    private var allSamples: [Sample] { families.flatMap(\.samples) }

    private static func includes(_ sample: Sample, _ labels: [String: String]) -> Bool {
        labels.allSatisfy { sample.labels[$0.key] == $0.value }
    }

    private static func belongs(_ sampleName: String, to family: Family) -> Bool {
        guard family.type == "histogram" else { return sampleName == family.name }
        return ["_bucket", "_sum", "_count"].contains { sampleName == family.name + $0 }
    }

    /// `name{label="value",…} value`, nothing after the value (this writer sends no timestamps).
    private static func sample(_ line: Substring, line number: Int) throws -> Sample {
        let name = String(line.prefix { $0 != "{" && $0 != " " })
        guard isMetricName(name) else { throw Invalid(line: number, reason: "not a metric name: \(line)") }
        var rest = line.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = String(rest.prefix { $0 != "=" })
                guard isLabelName(label), rest.dropFirst(label.count).hasPrefix("=\"") else {
                    throw Invalid(line: number, reason: "a malformed label: \(line)")
                }
                rest = rest.dropFirst(label.count + 2)
                var raw = Substring()
                var escaped = false
                var closed = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if escaped {
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        closed = true
                        break
                    }
                    raw.append(character)
                }
                guard closed else { throw Invalid(line: number, reason: "an unterminated label value: \(line)") }
                guard labels[label] == nil else { throw Invalid(line: number, reason: "the label \(label) twice: \(line)") }
                labels[label] = try unescape(raw, quotes: true, line: number)
                if rest.first == "," { rest = rest.dropFirst() } else if rest.first != "}" {
                    throw Invalid(line: number, reason: "labels not separated by a comma: \(line)")
                }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " ", let value = parseValue(rest.dropFirst()) else {
            throw Invalid(line: number, reason: "not a value: \(line)")
        }
        return Sample(name: name, labels: labels, value: value)
    }

    /// A float as Go's `strconv.ParseFloat` reads it, with Prometheus's spellings of infinity and NaN.
    private static func parseValue(_ text: Substring) -> Double? {
        switch text {
        case "+Inf": return .infinity
        case "-Inf": return -.infinity
        case "NaN": return .nan
        default:
            guard text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }) else { return nil }
            return Double(text)
        }
    }

    /// Undoes `\\`, `\n` and (in a label value) `\"`; any other escape is an error.
    private static func unescape(_ text: Substring, quotes: Bool, line: Int) throws -> String {
        var result = ""
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            if character == "\n" || (quotes && character == "\"") {
                throw Invalid(line: line, reason: "an unescaped \(character == "\n" ? "line feed" : "quote")")
            }
            guard character == "\\" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "\\": result.append("\\")
            case "n": result.append("\n")
            case "\"" where quotes: result.append("\"")
            default: throw Invalid(line: line, reason: "an escape the format does not have in \(text)")
            }
        }
        return result
    }

    private static func checkHistogram(_ family: Family) throws {
        func invalid(_ reason: String) -> Invalid { Invalid(line: 0, reason: "\(family.name): \(reason)") }
        var series: [[String: String]: (buckets: [(le: Double, count: Double)], sum: Double?, count: Double?)] = [:]
        for sample in family.samples {
            var labels = sample.labels
            if sample.name == family.name + "_bucket" {
                guard let le = labels.removeValue(forKey: "le").flatMap({ parseValue(Substring($0)) }) else {
                    throw invalid("a bucket without a numeric le")
                }
                series[labels, default: ([], nil, nil)].buckets.append((le, sample.value))
            } else if sample.name == family.name + "_sum" {
                series[labels, default: ([], nil, nil)].sum = sample.value
            } else {
                series[labels, default: ([], nil, nil)].count = sample.value
            }
        }
        for (labels, one) in series {
            guard let count = one.count, one.sum != nil else { throw invalid("\(labels) lacks _sum or _count") }
            guard let last = one.buckets.last, last.le == .infinity, last.count == count else {
                throw invalid("\(labels) does not end with le=\"+Inf\" equal to _count")
            }
            for (before, after) in zip(one.buckets, one.buckets.dropFirst()) {
                guard before.le < after.le else { throw invalid("\(labels): le does not ascend") }
                guard before.count <= after.count else { throw invalid("\(labels): buckets not cumulative") }
            }
        }
    }

    static func isMetricName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == ":") }
    }

    static func isLabelName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first), !name.hasPrefix("__") else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }
}
