import type { JsonSchema } from '../interfaces';
import { enumSchema, enumValues } from './enum-values';

/** The JSON type a class-validator type constraint fixes, or a DTO/Date marker resolved by the caller. */
export type ConstraintType = 'string' | 'number' | 'integer' | 'boolean' | 'date' | 'array' | 'object';

interface ConstraintRule {
  /** The type this constraint implies, when it implies one. */
  readonly type?: ConstraintType;
  /** Keywords it adds; undefined means JSON Schema cannot say it and class-validator checks it at call time. */
  readonly keywords?: (constraints: readonly any[]) => JsonSchema;
}

/**
 * class-validator constraint names (its `IS_*` constants) mapped to JSON Schema 2020-12. The same keywords
 * are what the compiled validator checks, so schema and validation cannot drift apart.
 */
const RULES: Readonly<Record<string, ConstraintRule>> = {
  isString: { type: 'string', keywords: () => ({ type: 'string' }) },
  isNumber: { type: 'number', keywords: () => ({ type: 'number' }) },
  isInt: { type: 'integer', keywords: () => ({ type: 'integer' }) },
  isBoolean: { type: 'boolean', keywords: () => ({ type: 'boolean' }) },
  isDate: { type: 'date', keywords: () => ({}) },
  isArray: { type: 'array', keywords: () => ({ type: 'array' }) },
  isObject: { type: 'object', keywords: () => ({ type: 'object' }) },
  isEnum: { keywords: ([entity]) => enumSchema(enumValues(entity)) },
  isIn: { keywords: ([values]) => enumSchema(values as (string | number)[]) },
  equals: { keywords: ([value]) => ({ const: value }) },
  isEmail: { type: 'string', keywords: () => ({ format: 'email' }) },
  isUrl: { type: 'string', keywords: () => ({ format: 'uri' }) },
  isUuid: { type: 'string', keywords: () => ({ format: 'uuid' }) },
  isDateString: { type: 'string', keywords: () => ({ format: 'date-time' }) },
  isISO8601: { type: 'string', keywords: () => ({ format: 'date-time' }) },
  isIp: { type: 'string', keywords: ([version]) => ipFormat(version) },
  matches: { type: 'string', keywords: ([pattern, modifiers]) => patternKeywords(pattern, modifiers) },
  isAlpha: { type: 'string', keywords: ([locale]) => (locale && locale !== 'en-US' ? undefinedRule() : { pattern: '^[A-Za-z]+$' }) },
  isAlphanumeric: {
    type: 'string',
    keywords: ([locale]) => (locale && locale !== 'en-US' ? undefinedRule() : { pattern: '^[A-Za-z0-9]+$' }),
  },
  isNotEmpty: { keywords: () => ({ minLength: 1 }) },
  isLength: { type: 'string', keywords: ([min, max]) => defined({ minLength: min, maxLength: max }) },
  minLength: { type: 'string', keywords: ([min]) => ({ minLength: min }) },
  maxLength: { type: 'string', keywords: ([max]) => ({ maxLength: max }) },
  min: { keywords: ([min]) => ({ minimum: min }) },
  max: { keywords: ([max]) => ({ maximum: max }) },
  isPositive: { keywords: () => ({ exclusiveMinimum: 0 }) },
  isNegative: { keywords: () => ({ exclusiveMaximum: 0 }) },
  arrayMinSize: { type: 'array', keywords: ([min]) => ({ minItems: min }) },
  arrayMaxSize: { type: 'array', keywords: ([max]) => ({ maxItems: max }) },
  arrayNotEmpty: { type: 'array', keywords: () => ({ minItems: 1 }) },
  arrayUnique: { type: 'array', keywords: ([identifier]) => (identifier ? undefinedRule() : { uniqueItems: true }) },
};

// A sentinel: the rule cannot be said in JSON Schema for these constraint values.
const UNEXPRESSIBLE = Symbol('unexpressible');
function undefinedRule(): JsonSchema {
  return { [UNEXPRESSIBLE as unknown as string]: true };
}

export function constraintType(name: string): ConstraintType | undefined {
  return RULES[name]?.type;
}

/**
 * The keywords for one constraint, or undefined when JSON Schema cannot express it (the caller then keeps
 * class-validator for that DTO at call time).
 */
export function constraintKeywords(name: string, constraints: readonly unknown[] | undefined): JsonSchema | undefined {
  const rule = RULES[name];
  if (!rule?.keywords) return undefined;
  const keywords = rule.keywords(constraints ?? []);
  if ((keywords as Record<PropertyKey, unknown>)[UNEXPRESSIBLE as unknown as string]) return undefined;
  return keywords;
}

/** `isNotEmpty` on a non-string: arrays get `minItems`, other types nothing (null/undefined is handled by `required`). */
export function adaptKeywords(keywords: JsonSchema, type: unknown): JsonSchema {
  if ('minLength' in keywords && type === 'array') return { minItems: keywords.minLength };
  if ('minLength' in keywords && type !== 'string') return {};
  return keywords;
}

function patternKeywords(pattern: unknown, modifiers: unknown): JsonSchema {
  const source = pattern instanceof RegExp ? pattern.source : String(pattern);
  const flags = pattern instanceof RegExp ? pattern.flags : typeof modifiers === 'string' ? modifiers : '';
  // JSON Schema patterns have no flags (ECMA-262, unanchored): other flags cannot be expressed.
  return flags.replace(/[gu]/g, '') === '' ? { pattern: source } : undefinedRule();
}

function ipFormat(version: unknown): JsonSchema {
  const v = String(version ?? '');
  if (v === '4') return { format: 'ipv4' };
  if (v === '6') return { format: 'ipv6' };
  return { anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] };
}

function defined(keywords: Record<string, unknown>): JsonSchema {
  return Object.fromEntries(Object.entries(keywords).filter(([, v]) => v !== undefined && v !== null));
}
