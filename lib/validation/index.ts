export { SchemaCompiler } from './ajv-factory';
export type { ValidateFunction } from './ajv-factory';
export { ArgumentValidator } from './argument-validator';
export type { InputValidator, ValidationOutcome } from './argument-validator';
export { classValidatorIssues } from './class-validation';
export { formatIssues } from './issue-format';
export { validatorKey } from './precompiled';
export type { ValidatorUse } from './precompiled';
export { StandardValidator, standardIssues } from './standard-validator';
