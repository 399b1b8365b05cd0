import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plug-in providing the model macros that the ObjectModelMacro library declares.
@main
struct ObjectModelMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        ObjectModelMacro.self, EntityMacro.self, EntityPropertyMacro.self, PropertyMarkerMacro.self,
    ]
}
