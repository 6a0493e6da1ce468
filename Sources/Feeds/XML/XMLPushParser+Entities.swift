import CLibXML2
import Foundation

/// Entities, answered by the parser itself so that libxml2 never substitutes or loads one:
/// HTML's names, and the document's own internal entities expanded under a budget.
extension XMLPushParser {
    func declareEntity(name: String, type: Int32, content: String?) {
        guard failure == nil else { return }
        guard declaredEntities.count < Self.maxEntityDeclarations else {
            fail(.entityExpansionLimitExceeded(limit: maxExpansionBytes))
            return
        }
        // External entities are never read, so they are not declared here: references to
        // them resolve to nothing.
        guard type == Int32(XML_INTERNAL_GENERAL_ENTITY.rawValue), let content, declaredEntities[name] == nil else { return }
        declaredEntities[name] = content
    }

    func entity(named name: String) -> UnsafeMutablePointer<xmlEntity>? {
        guard failure == nil else { return nil }
        if let context, context.pointee.instate == XML_PARSER_ATTRIBUTE_VALUE {
            return attributeEntity(named: name)
        }
        if let declared = declaredEntities[name] {
            // Every reference counts against the budget, cached or not: amplification is
            // many references to one big entity as much as deep nesting.
            if let cached = resolvedEntities[name] {
                return charge(Int(cached.pointee.length)) ? cached : nil
            }
            guard let text = expand(declared, depth: 1), charge(text.utf8.count) else { return nil }
            let entity = makeEntity(name: name, text: text, type: XML_INTERNAL_PREDEFINED_ENTITY)
            resolvedEntities[name] = entity
            return entity
        }
        if let cached = resolvedEntities[name] { return cached }
        guard let character = HTMLEntities.character(named: name) else { return nil }
        let entity = makeEntity(name: name, text: String(character), type: XML_INTERNAL_PREDEFINED_ENTITY)
        resolvedEntities[name] = entity
        return entity
    }

    /// An entity for a reference inside an attribute value. libxml2 copies only the first
    /// byte of a predefined entity there, so attributes get a general entity instead, which it
    /// leaves as `&name;` for ``decodeAttribute(_:)`` to replace.
    func attributeEntity(named name: String) -> UnsafeMutablePointer<xmlEntity>? {
        guard declaredEntities[name] != nil || HTMLEntities.character(named: name) != nil else { return nil }
        if let cached = attributeEntities[name] { return cached }
        let entity = makeEntity(name: name, text: "", type: XML_INTERNAL_GENERAL_ENTITY)
        attributeEntities[name] = entity
        return entity
    }

    /// An attribute value with its references replaced, declared entities expanded under the
    /// same budget as in text.
    func decodeAttribute(_ value: String) -> String {
        HTMLEntities.decode(value) { [self] name in
            guard let declared = declaredEntities[name], let text = expand(declared, depth: 1), charge(text.utf8.count) else { return nil }
            return text
        }
    }

    /// `content` with the references in it replaced, or `nil` once the budget is spent.
    ///
    /// Every reference costs its own length (`&name;`) besides the text it stands for, so
    /// that references to entities that stand for nothing (undeclared, or empty) cannot nest
    /// into exponential time at no cost: ten levels of ten references each to an undeclared
    /// name were 10¹⁰ lookups within budget.
    func expand(_ content: String, depth: Int) -> String? {
        guard depth <= Self.maxEntityDepth else {
            fail(.entityExpansionLimitExceeded(limit: maxExpansionBytes))
            return nil
        }
        var out = ""
        var rest = content[...]
        while let ampersand = rest.firstIndex(of: "&") {
            out += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { break }
            let name = rest[rest.index(after: ampersand)..<semicolon]
            rest = rest[rest.index(after: semicolon)...]
            guard charge(name.utf8.count + 2) else { return nil }
            if name.first == "#" {
                if let character = HTMLEntities.character(numeric: name.dropFirst()) { out.unicodeScalars.append(character) }
            } else if let predefined = Array(name.utf8).withUnsafeBufferPointer(HTMLEntities.predefined) {
                out.unicodeScalars.append(Unicode.Scalar(predefined))
            } else if let inner = declaredEntities[String(name)] {
                guard let expanded = expand(inner, depth: depth + 1), charge(expanded.utf8.count) else { return nil }
                out += expanded
            } else if let character = HTMLEntities.character(named: String(name)) {
                out.unicodeScalars.append(character)
            }
        }
        out += rest
        return out
    }

    func charge(_ bytes: Int) -> Bool {
        expandedBytes += bytes
        guard expandedBytes <= maxExpansionBytes else {
            fail(.entityExpansionLimitExceeded(limit: maxExpansionBytes))
            return false
        }
        return true
    }

    /// An entity owned by this parser (freed with it). Predefined entities are the one kind
    /// libxml2 passes to `characters` as they are, without parsing their content or
    /// substituting anything itself.
    func makeEntity(name: String, text: String, type: xmlEntityType) -> UnsafeMutablePointer<xmlEntity> {
        let entity = UnsafeMutablePointer<xmlEntity>.allocate(capacity: 1)
        entity.initialize(to: xmlEntity())
        entity.pointee.type = XML_ENTITY_DECL
        entity.pointee.name = UnsafePointer(strdup(name).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: xmlChar.self) })
        entity.pointee.content = strdup(text).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: xmlChar.self) }
        entity.pointee.length = Int32(text.utf8.count)
        entity.pointee.etype = type
        ownedEntities.append(entity)
        return entity
    }

    func fail(_ error: FeedParsingError) {
        guard failure == nil else { return }
        failure = error
        stop()
    }
}
