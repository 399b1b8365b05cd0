import Foundation

// The Foundation predicate expressions that have a counterpart in ``ObjectPredicate``. Each
// reads its operands through the translator, which casts them in turn, so an unsupported
// operand is named where it stands.

extension PredicateExpressions.Variable: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        guard let binding = translator.bindings[key] else {
            throw TypedPredicateTranslator.unsupported(self, fix: "use only the predicate's own variable and those of ?. and contains(where:)")
        }
        return .key(binding.path, quantified: binding.quantified, type: Output.self)
    }
}

extension PredicateExpressions.KeyPath: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        guard case .key(let base, let quantified, let baseType) = try translator.operand(root) else {
            throw TypedPredicateTranslator.unsupported(self, fix: "read key paths of the fetched object and of the objects its relationships reach")
        }
        if let entity = Root.Output.self as? any EntityObject.Type {
            // `$0.objectID`, `$0.folder?.objectID`: the object itself, compared by ID.
            if entity.isObjectIDKeyPath(keyPath) { return .key(base, quantified: quantified, type: Output.self) }
            guard let name = entity.modelName(for: keyPath) else {
                throw .unknownKeyPath(keyPath: keyPath.debugDescription, entity: String(describing: entity))
            }
            return .key(base.isEmpty ? name : base + "." + name, quantified: quantified, type: Output.self)
        }
        if TypedPredicateTranslator.isToMany(baseType), !quantified {
            // The size of a to-many relationship: `tags.@count`.
            switch kind {
            case .collectionCount?:
                return .key(base + ".@count", quantified: false, type: Int.self)
            case .collectionIsEmpty?:
                return .predicate(translator.comparison(.key(base + ".@count", quantified: false, type: Int.self), .equal,
                                                        .value(.constant(.int(0)))))
            default: break
            }
        }
        throw TypedPredicateTranslator.unsupported(self, fix: "compare stored properties themselves: the store reads attributes, relationships and the count of a to-many relationship, not properties of an attribute's value (such as a String's count)")
    }
}

extension PredicateExpressions.Value: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        guard let operand = TypedOperand(constant: value) else {
            throw TypedPredicateTranslator.unsupported(self, fix: "use values of attribute types (String, integers, Double, Float, Decimal, Bool, Date, Data, UUID, URL), entity objects, nil, or arrays and ranges of them")
        }
        return operand
    }
}

extension PredicateExpressions.NilLiteral: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        .value(.constant(.null))
    }
}

extension PredicateExpressions.OptionalFlatMap: TypedOperandConvertible {
    /// `$0.folder?.name`: the variable stands for `folder`, so its key paths continue it.
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        let inner = try translator.binding(variable, to: try translator.operand(wrapped), for: self)
        let result = try inner.operand(transform)
        if case .key(let path, let quantified, _) = result { return .key(path, quantified: quantified, type: Output.self) }
        return result
    }
}

extension PredicateExpressions.Conjunction: TypedOperandConvertible, TypedConjunctionParts {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        guard !translator.insideAny else {
            throw TypedPredicateTranslator.unsupported(self, fix: "inside contains(where:) only one comparison, or comparisons joined by ||, can be tested; split the test into several contains(where:) joined by && if that is what you mean")
        }
        var items: [ObjectPredicate] = []
        for side in [lhs, rhs] as [Any] {
            let p = try translator.predicate(side)
            if case .and(let inner) = p { items += inner } else { items.append(p) }
        }
        return .predicate(.and(items))
    }

    var conjunctionParts: [Any] { [lhs, rhs] }
}

extension PredicateExpressions.Disjunction: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        var items: [ObjectPredicate] = []
        for side in [lhs, rhs] as [Any] {
            let p = try translator.predicate(side)
            if case .or(let inner) = p { items += inner } else { items.append(p) }
        }
        return .predicate(.or(items))
    }
}

extension PredicateExpressions.Negation: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        guard !translator.insideAny else {
            throw TypedPredicateTranslator.unsupported(self, fix: "inside contains(where:) negate the comparison instead (`$0.name != x`), or negate the whole contains(where:)")
        }
        return .predicate(.not(try translator.predicate(wrapped)))
    }
}

extension PredicateExpressions.Equal: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        .predicate(try translator.comparison(self, lhs, .equal, rhs))
    }
}

extension PredicateExpressions.NotEqual: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        .predicate(try translator.comparison(self, lhs, .notEqual, rhs))
    }
}

extension PredicateExpressions.Comparison: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        let op: PredicateOperator
        switch self.op {
        case .lessThan: op = .lessThan
        case .lessThanOrEqual: op = .lessThanOrEqual
        case .greaterThan: op = .greaterThan
        case .greaterThanOrEqual: op = .greaterThanOrEqual
        @unknown default: throw TypedPredicateTranslator.unsupported(self)
        }
        return .predicate(try translator.comparison(self, lhs, op, rhs))
    }
}

extension PredicateExpressions.ClosedRange: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        guard case .value(let low) = try translator.operand(lower), case .value(let high) = try translator.operand(upper) else {
            throw TypedPredicateTranslator.unsupported(self, fix: "bound ranges by values, not properties")
        }
        return .range(lower: low, upper: high, closed: true)
    }
}

extension PredicateExpressions.Range: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        guard case .value(let low) = try translator.operand(lower), case .value(let high) = try translator.operand(upper) else {
            throw TypedPredicateTranslator.unsupported(self, fix: "bound ranges by values, not properties")
        }
        return .range(lower: low, upper: high, closed: false)
    }
}

extension PredicateExpressions.RangeExpressionContains: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        .predicate(try translator.membership(self, range, element))
    }
}

extension PredicateExpressions.SequenceContains: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        .predicate(try translator.membership(self, sequence, element))
    }
}

extension PredicateExpressions.SequenceContainsWhere: TypedOperandConvertible {
    /// `$0.tags.contains { $0.name == x }`: `ANY tags.name == x`.
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        let relationship = try translator.operand(sequence)
        guard case .key(_, _, let type) = relationship, TypedPredicateTranslator.isToMany(type) else {
            throw TypedPredicateTranslator.unsupported(self, fix: "use contains(where:) on a to-many relationship, and contains(_:) to test membership in an array of values")
        }
        let inner = try translator.binding(variable, to: relationship, for: self, quantified: true)
        return .predicate(try inner.predicate(test))
    }
}

extension PredicateExpressions.SequenceStartsWith: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        .predicate(try translator.stringTest(self, base, .beginsWith, prefix))
    }
}

extension PredicateExpressions.CollectionContainsCollection: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        .predicate(try translator.stringTest(self, base, .contains, other))
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        .predicate(try translator.stringTest(self, root, .contains, other, options: [.caseInsensitive, .diacriticInsensitive]))
    }
}

extension PredicateExpressions.StringLocalizedStandardHasPrefix: TypedOperandConvertible {
    func typedOperand(in translator: TypedPredicateTranslator) throws(TypedQueryError) -> TypedOperand {
        .predicate(try translator.stringTest(self, root, .beginsWith, PredicateExpressions.Value(prefix.string),
                                             options: [.caseInsensitive, .diacriticInsensitive]))
    }
}
