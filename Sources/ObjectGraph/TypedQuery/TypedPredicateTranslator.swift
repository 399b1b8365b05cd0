import Foundation

/// Turns the expression tree of a Foundation `Predicate` over an ``EntityObject`` type into
/// an ``ObjectPredicate``.
///
/// Each supported Foundation expression type conforms to ``TypedOperandConvertible`` (see
/// `PredicateExpressions+TypedOperand.swift`); the translator reaches the expressions of a
/// tree by dynamic casts, so an expression of any other type is found where it stands and
/// named in the error.
struct TypedPredicateTranslator {
    /// What a predicate variable stands for: the root object (`path` empty), an object
    /// reached through to-one relationships (`folder`), an optional attribute unwrapped by
    /// `?.`, or an element of a to-many relationship in `contains(where:)` (`quantified`).
    struct Binding {
        var path: String
        var quantified: Bool
    }

    /// The variables in scope.
    var bindings: [PredicateExpressions.VariableID: Binding]
    /// Inside the test of `contains(where:)`: only comparisons and their disjunctions, which
    /// `ANY` distributes over, translate.
    var insideAny = false

    /// A translator with the predicate's own variable bound to the evaluated object.
    init<T>(root: PredicateExpressions.Variable<T>) {
        bindings = [root.key: Binding(path: "", quantified: false)]
    }

    /// The translation of a whole predicate.
    static func translate<T: EntityObject>(_ predicate: Predicate<T>) throws(TypedQueryError) -> ObjectPredicate {
        try TypedPredicateTranslator(root: predicate.variable).predicate(predicate.expression)
    }

    /// The translations of the top-level conjuncts (`a && b && c`) that translate, and the
    /// error of the first that does not (`nil` when all do).
    static func translateConjuncts<T: EntityObject>(_ predicate: Predicate<T>) -> (translated: [ObjectPredicate], failure: TypedQueryError?) {
        let translator = TypedPredicateTranslator(root: predicate.variable)
        var translated: [ObjectPredicate] = []
        var failure: TypedQueryError?
        for conjunct in conjuncts(of: predicate.expression) {
            do throws(TypedQueryError) { translated.append(try translator.predicate(conjunct)) }
            catch { failure = failure ?? error }
        }
        return (translated, failure)
    }

    /// The operands of a chain of `&&`, left to right.
    private static func conjuncts(of expression: Any) -> [Any] {
        guard let conjunction = expression as? any TypedConjunctionParts else { return [expression] }
        return conjunction.conjunctionParts.flatMap(conjuncts(of:))
    }

    // MARK: Operands

    /// The operand an expression stands for.
    func operand(_ expression: Any) throws(TypedQueryError) -> TypedOperand {
        guard let convertible = expression as? any TypedOperandConvertible else {
            throw Self.unsupported(expression)
        }
        return try convertible.typedOperand(in: self)
    }

    /// The condition an expression stands for (a comparison, a Boolean attribute, `true`).
    func predicate(_ expression: Any) throws(TypedQueryError) -> ObjectPredicate {
        switch try operand(expression) {
        case .predicate(let p): return p
        case .key(let path, let quantified, let type) where type == Bool.self:
            return comparison(.key(path, quantified: quantified, type: type), .equal, .value(.constant(.bool(true))))
        case .value(.constant(.bool(let flag))): return flag ? .truePredicate : .falsePredicate
        default:
            throw Self.unsupported(expression, fix: "use it in a comparison (==, !=, <, >, contains, starts(with:)); only Boolean attributes and comparisons are conditions on their own")
        }
    }

    /// A translator with `variable` bound to what `operand` names.
    func binding<V>(_ variable: PredicateExpressions.Variable<V>, to operand: TypedOperand, for expression: Any,
                    quantified: Bool = false) throws(TypedQueryError) -> TypedPredicateTranslator {
        guard case .key(let path, let alreadyQuantified, _) = operand else {
            throw Self.unsupported(expression, fix: "apply ?. and contains(where:) to properties of the fetched object only")
        }
        if quantified && alreadyQuantified {
            throw Self.unsupported(expression, fix: "nested contains(where:) is not supported: test one to-many relationship at a time, or set allowsInMemoryEvaluation")
        }
        var inner = self
        inner.bindings[variable.key] = Binding(path: path, quantified: quantified || alreadyQuantified)
        inner.insideAny = insideAny || quantified
        return inner
    }

    // MARK: Comparisons

    /// `lhs op rhs`, quantified with `ANY` when a side reaches through `contains(where:)`.
    func comparison(_ lhs: TypedOperand, _ op: PredicateOperator, _ rhs: TypedOperand,
                    options: ComparisonOptions = []) -> ObjectPredicate {
        var left = lhs, right = rhs, op = op
        // The key on the left, as the store expects (`name < "b"` for `"b" > $0.name`).
        if case .value = left, case .key = right, let flipped = op.swapped {
            swap(&left, &right)
            op = flipped
        }
        let quantified = left.isQuantified || right.isQuantified
        return .comparison(PredicateComparison(left.expression, op, right.expression,
                                               modifier: quantified ? .any : .direct, options: options))
    }

    /// The comparison of two operands of a Foundation `==`/`!=`/`<`… expression.
    func comparison(_ expression: Any, _ lhsExpression: Any, _ op: PredicateOperator, _ rhsExpression: Any) throws(TypedQueryError) -> ObjectPredicate {
        let lhs = try operand(lhsExpression), rhs = try operand(rhsExpression)
        // A condition compared with `true` (`$0.subtitle?.starts(with: "x") == true`).
        for (condition, other) in [(lhs, rhs), (rhs, lhs)] {
            guard case .predicate(let p) = condition else { continue }
            guard case .value(.constant(.bool(true))) = other, op == .equal || op == .notEqual else {
                throw Self.unsupported(expression, fix: "compare a condition with true only (`== true`, `!= true`), or negate it with !")
            }
            return op == .equal ? p : .not(p)
        }
        guard lhs.isComparable, rhs.isComparable else {
            throw Self.unsupported(expression, fix: "compare a property with a value or another property; ranges go in contains(_:)")
        }
        return comparison(lhs, op, rhs)
    }

    /// A string test (`CONTAINS`, `BEGINSWITH`) of a string property against a string.
    func stringTest(_ expression: Any, _ baseExpression: Any, _ op: PredicateOperator, _ otherExpression: Any,
                    options: ComparisonOptions = []) throws(TypedQueryError) -> ObjectPredicate {
        let base = try operand(baseExpression), other = try operand(otherExpression)
        for side in [base, other] {
            switch side {
            case .key(_, _, let type) where Self.isString(type): continue
            case .value(.constant(.string)): continue
            default:
                throw Self.unsupported(expression, fix: "test a String attribute against a string value")
            }
        }
        return comparison(base, op, other, options: options)
    }

    /// `element` in `sequence`: `IN` for an array of values, `BETWEEN` or a half-open pair
    /// of comparisons for a range, `ANY rel == object` for a to-many relationship.
    func membership(_ expression: Any, _ sequenceExpression: Any, _ elementExpression: Any) throws(TypedQueryError) -> ObjectPredicate {
        let sequence = try operand(sequenceExpression), element = try operand(elementExpression)
        switch (sequence, element) {
        case (.value(.aggregate), .key):
            return comparison(element, .in, sequence)
        case (.range(let lower, let upper, let closed), .key):
            if closed { return comparison(element, .between, .value(.aggregate([lower, upper]))) }
            return .and([comparison(element, .greaterThanOrEqual, .value(lower)), comparison(element, .lessThan, .value(upper))])
        case (.key(let path, false, let type), .value(.object)) where Self.isToMany(type):
            return comparison(.key(path, quantified: true, type: type), .equal, element)
        default:
            throw Self.unsupported(expression, fix: "test a property's membership in an array or range of values (`names.contains($0.name)`, `(1...5).contains($0.pages)`), or an object's in a to-many relationship")
        }
    }

    // MARK: Types

    /// Whether `type` is `String` or `String?`.
    static func isString(_ type: Any.Type) -> Bool { type == String.self || type == String?.self }

    /// Whether `type` is the value of a to-many relationship (a set or array of entity views).
    static func isToMany(_ type: Any.Type) -> Bool { type is any TypedToManyValue.Type }

    // MARK: Errors

    /// The error for `expression`, named by its Foundation type and description.
    static func unsupported(_ expression: Any, fix: String? = nil) -> TypedQueryError {
        let typeName = String(describing: type(of: expression))
        let name = typeName.split(separator: "<", maxSplits: 1).first.map(String.init) ?? typeName
        return .unsupportedExpression(expression: name, detail: String(describing: expression),
                                      fix: (fix ?? defaultFix(name)) + "; or set FetchDescriptor.allowsInMemoryEvaluation to evaluate it in memory after the store's fetch")
    }

    private static func defaultFix(_ name: String) -> String {
        switch name {
        case "Arithmetic", "UnaryMinus", "FloatDivision", "IntDivision", "IntRemainder":
            return "compare the property itself with a value computed outside the predicate (`$0.pages > 5`, not `$0.pages * 2 > 10`)"
        case "NilCoalesce":
            return "compare the optional property itself (`$0.subtitle == \"x\"`, or `$0.subtitle?.contains(\"x\") == true`) instead of using ??"
        case "ForcedUnwrap":
            return "use optional chaining (`$0.folder?.name == x`) instead of !"
        case "Conditional":
            return "spell the condition out with && and || instead of ?:"
        default:
            return "rewrite it with comparisons of properties against values (==, !=, <, <=, >, >=, contains, starts(with:), localizedStandardContains), &&, || and !"
        }
    }
}

/// What a translated sub-expression of a typed predicate stands for.
enum TypedOperand {
    /// A key path from the evaluated object (empty: the object itself), the Swift type of its
    /// value, and whether it reaches through `contains(where:)` (so comparisons are `ANY`).
    case key(String, quantified: Bool, type: Any.Type)
    /// A constant: a value, `nil`, an object or an array of them.
    case value(PredicateExpression)
    /// A range of constants.
    case range(lower: PredicateExpression, upper: PredicateExpression, closed: Bool)
    /// A condition.
    case predicate(ObjectPredicate)

    var isQuantified: Bool {
        if case .key(_, true, _) = self { return true }
        return false
    }

    /// Whether the operand can be a side of a comparison.
    var isComparable: Bool {
        switch self {
        case .key, .value: return true
        case .range, .predicate: return false
        }
    }

    /// The operand as a side of a ``PredicateComparison`` (ranges and conditions are not).
    var expression: PredicateExpression {
        switch self {
        case .key(let path, _, _): return path.isEmpty ? .evaluatedObject : .keyPath(path)
        case .value(let e): return e
        case .range(let lower, let upper, _): return .aggregate([lower, upper])
        case .predicate: return .constant(.null)
        }
    }

    /// The operand of a constant Swift value: an attribute value, `nil`, an entity view, an
    /// array or set of them, or a range.
    init?(constant value: Any) {
        if let flag = value as? Bool { self = .value(.constant(.bool(flag))); return }
        if let object = value as? any EntityObject { self = .value(.object(object.objectID)); return }
        if let range = value as? any TypedRangeValue {
            guard case .value(let lower)? = TypedOperand(constant: range.lowerBoundValue),
                  case .value(let upper)? = TypedOperand(constant: range.upperBoundValue) else { return nil }
            self = .range(lower: lower, upper: upper, closed: range.isClosed)
            return
        }
        if let argument = value as? any PredicateArgument { self = .value(argument.predicateExpression); return }
        if let optional = value as? any TypedOptionalValue {
            guard let wrapped = optional.wrappedValue else { self = .value(.constant(.null)); return }
            self.init(constant: wrapped)
            return
        }
        if let sequence = value as? any Sequence {
            var items: [PredicateExpression] = []
            for element in sequence {
                guard case .value(let item)? = TypedOperand(constant: element) else { return nil }
                items.append(item)
            }
            self = .value(.aggregate(items))
            return
        }
        return nil
    }
}

extension PredicateOperator {
    /// The operator with its sides swapped (`a < b` is `b > a`), for those that have one.
    var swapped: PredicateOperator? {
        switch self {
        case .equal, .notEqual: return self
        case .lessThan: return .greaterThan
        case .lessThanOrEqual: return .greaterThanOrEqual
        case .greaterThan: return .lessThan
        case .greaterThanOrEqual: return .lessThanOrEqual
        default: return nil
        }
    }
}

/// A Foundation predicate expression the translator understands.
protocol TypedOperandConvertible {
    /// What the expression stands for, in the variables of `translator`.
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand
}

/// `&&`: its two operands, so a predicate can be split into conjuncts.
protocol TypedConjunctionParts {
    var conjunctionParts: [Any] { get }
}

/// The value of a to-many relationship of generated entity types.
protocol TypedToManyValue {}
extension Set: TypedToManyValue where Element: EntityObject {}
extension Array: TypedToManyValue where Element: EntityObject {}

/// An optional, seen without its type.
protocol TypedOptionalValue {
    var wrappedValue: Any? { get }
}
extension Optional: TypedOptionalValue {
    var wrappedValue: Any? { self.map { $0 } }
}

/// A range of constants, seen without its bound type.
protocol TypedRangeValue {
    var lowerBoundValue: Any { get }
    var upperBoundValue: Any { get }
    var isClosed: Bool { get }
}
extension ClosedRange: TypedRangeValue {
    var lowerBoundValue: Any { lowerBound }
    var upperBoundValue: Any { upperBound }
    var isClosed: Bool { true }
}
extension Range: TypedRangeValue {
    var lowerBoundValue: Any { lowerBound }
    var upperBoundValue: Any { upperBound }
    var isClosed: Bool { false }
}

extension EntityObject {
    /// The model name of the property `keyPath` reads, from ``propertyKeys``.
    static func modelName(for keyPath: AnyKeyPath) -> String? {
        guard let keyPath = keyPath as? PartialKeyPath<Self> else { return nil }
        return propertyKeys[keyPath]
    }

    /// Whether `keyPath` is `\.objectID`, the object's own identity.
    static func isObjectIDKeyPath(_ keyPath: AnyKeyPath) -> Bool {
        keyPath == \Self.objectID as AnyKeyPath
    }
}
