export { paramsInputSchema, argsInputSchema, outputSchema, jsonValue } from './input-schema';
export { generatedDates, statesType } from './type-schema';
export type { ParamSchemaInput, RootSchema } from './input-schema';
export type { SchemaSite } from './schema.messages';
export type { Converter, ShapedSchema } from './shaped-schema';
export { DEFAULT_RECURSION_DEPTH, hasRef, inlineRefs } from './ref-free';
export type { Inlined } from './ref-free';
export { isSafePattern, MAX_GROUP_DEPTH, patternProblem, withSafePatterns } from './safe-pattern';
export type { DroppedPattern } from './safe-pattern';
