// An app imports ObjectSync alone: the object graph (contexts, typed fetches, observation)
// and the container come with it.
@_exported public import ObjectGraph
@_exported public import DocumentIncrementalStore
