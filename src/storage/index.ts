// clusterwire/storage: the storage-cluster REST API toolkit. Filled in by its own issue.
export {};
