// The model layer (entity, attribute and relationship descriptions, the XML loader) is its
// own module, ManagedModel, so the entity code generator can load models without this
// module's cryptography dependency (README, "Generated entity types"). Everything that uses
// the object graph uses the model too, so importing ObjectGraph brings ManagedModel along.
@_exported public import ManagedModel
