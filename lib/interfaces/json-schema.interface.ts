/** A JSON Schema (2020-12) object. Kept loose on purpose: users pass partial schemas that are merged. */
export type JsonSchema = { [keyword: string]: unknown };
