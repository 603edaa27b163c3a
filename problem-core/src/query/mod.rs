//! Collection query conventions (spec, "Collection request"; `DECISIONS.md`, "Collection queries").
