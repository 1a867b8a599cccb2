import type { JsonSchema } from '../interfaces';
import { enumSchema, enumValues } from './enum-values';

/** The JSON type a class-validator type constraint fixes, or a DTO/Date marker resolved by the caller. */
export type ConstraintType = 'string' | 'number' | 'integer' | 'boolean' | 'date' | 'array' | 'object';

interface ConstraintRule {
  /** The type this constraint implies, when it implies one. */
  readonly type?: ConstraintType;
  /** The keywords it adds; `partial` when some of its arguments cannot be said in JSON Schema. */
  readonly keywords: (constraints: readonly any[]) => Keywords;
}

/** Keywords for one constraint; `complete: false` means class-validator must still check it at call time. */
export interface Keywords {
  readonly keywords: JsonSchema;
  readonly complete: boolean;
}

const full = (keywords: JsonSchema): Keywords => ({ keywords, complete: true });
const partial = (keywords: JsonSchema): Keywords => ({ keywords, complete: false });

/** Keywords that hold only while the decorator got no options (`@IsNumber({ maxDecimalPlaces: 2 })` has some). */
const plain =
  (keywords: JsonSchema) =>
  (args: readonly unknown[]): Keywords =>
    args.every(isEmptyOption) ? full(keywords) : partial(keywords);

/**
 * class-validator constraint names (its `IS_*` constants) mapped to JSON Schema 2020-12. The same keywords
 * are what the compiled validator checks, so schema and validation cannot drift apart; what a rule cannot
 * say in JSON Schema is left to class-validator at call time.
 */
const RULES: Readonly<Record<string, ConstraintRule>> = {
  isString: { type: 'string', keywords: plain({ type: 'string' }) },
  isNumber: { type: 'number', keywords: plain({ type: 'number' }) },
  isInt: { type: 'integer', keywords: plain({ type: 'integer' }) },
  isBoolean: { type: 'boolean', keywords: plain({ type: 'boolean' }) },
  isDate: { type: 'date', keywords: plain({}) },
  isArray: { type: 'array', keywords: plain({ type: 'array' }) },
  isObject: { type: 'object', keywords: plain({ type: 'object' }) },
  isEnum: { keywords: ([entity]) => full(enumSchema(enumValues(entity))) },
  isIn: { keywords: ([values]) => full(enumSchema(values as (string | number)[])) },
  equals: { keywords: ([value]) => full({ const: value }) },
  // The formats accept strings validator.js refuses ('a@b.c', 'mailto:x', a UUID of version 9, '2020-01-01t00:00:00z'):
  // the schema says what it can, class-validator still decides (spec/validation/skip-agreement.property.spec.ts).
  isEmail: { type: 'string', keywords: () => partial({ type: 'string', format: 'email' }) },
  isUrl: { type: 'string', keywords: () => partial({ type: 'string', format: 'uri' }) },
  isUuid: { type: 'string', keywords: () => partial({ type: 'string', format: 'uuid' }) },
  isDateString: { type: 'string', keywords: () => partial({ type: 'string', format: 'date-time' }) },
  isISO8601: { type: 'string', keywords: () => partial({ type: 'string', format: 'date-time' }) },
  isIp: { type: 'string', keywords: ([version]) => full({ type: 'string', ...ipFormat(version) }) },
  matches: { type: 'string', keywords: ([pattern, modifiers]) => patternKeywords(pattern, modifiers) },
  isAlpha: { type: 'string', keywords: ([locale]) => localeKeywords(locale, '^[A-Za-z]+$') },
  isAlphanumeric: { type: 'string', keywords: ([locale]) => localeKeywords(locale, '^[A-Za-z0-9]+$') },
  // Not '', null or undefined: `required` covers the last two; minLength is adapted to the type (adaptKeywords).
  isNotEmpty: { keywords: plain({ minLength: 1 }) },
  isLength: { type: 'string', keywords: ([min, max]) => full(defined({ type: 'string', minLength: min, maxLength: max })) },
  minLength: { type: 'string', keywords: ([min]) => full({ type: 'string', minLength: min }) },
  maxLength: { type: 'string', keywords: ([max]) => full({ type: 'string', maxLength: max }) },
  min: { keywords: ([min]) => full({ minimum: min }) },
  max: { keywords: ([max]) => full({ maximum: max }) },
  isPositive: { keywords: plain({ exclusiveMinimum: 0 }) },
  isNegative: { keywords: plain({ exclusiveMaximum: 0 }) },
  arrayMinSize: { type: 'array', keywords: ([min]) => full({ minItems: min }) },
  arrayMaxSize: { type: 'array', keywords: ([max]) => full({ maxItems: max }) },
  arrayNotEmpty: { type: 'array', keywords: plain({ minItems: 1 }) },
  arrayUnique: { type: 'array', keywords: ([identifier]) => (identifier ? partial({}) : full({ uniqueItems: true })) },
};

export function constraintType(name: string): ConstraintType | undefined {
  return RULES[name]?.type;
}

/** The keywords for one constraint, or undefined for a constraint this table does not know. */
export function constraintKeywords(name: string, constraints: readonly unknown[] | undefined): Keywords | undefined {
  return RULES[name]?.keywords(constraints ?? []);
}

/** `isNotEmpty` says minLength for strings only: arrays get `minItems`, other types nothing. */
export function adaptKeywords(name: string, keywords: JsonSchema, type: unknown): JsonSchema {
  if (name !== 'isNotEmpty' || type === 'string') return keywords;
  return type === 'array' ? { minItems: keywords.minLength } : {};
}

function isEmptyOption(arg: unknown): boolean {
  return arg === undefined || (typeof arg === 'object' && arg !== null && Object.keys(arg).length === 0);
}

function localeKeywords(locale: unknown, pattern: string): Keywords {
  return !locale || locale === 'en-US' ? full({ pattern }) : partial({});
}

function patternKeywords(pattern: unknown, modifiers: unknown): Keywords {
  const source = pattern instanceof RegExp ? pattern.source : String(pattern);
  const flags = pattern instanceof RegExp ? pattern.flags : typeof modifiers === 'string' ? modifiers : '';
  // JSON Schema patterns have no flags (ECMA-262, unanchored): other flags cannot be expressed.
  if (flags.replace(/[gu]/g, '') !== '') return partial({ type: 'string' });
  // The compiled schema matches in Unicode mode (ajv's `u`), class-validator without it unless asked: where the two
  // read astral characters apart (`.`, a negated class, \S \W \D \B, \p{…}), class-validator still decides.
  return !flags.includes('u') && UNICODE_SENSITIVE.test(source) ? partial({ type: 'string', pattern: source }) : full({ type: 'string', pattern: source });
}

/** An unescaped `.`, a negated class, or an escape whose match depends on the Unicode flag. */
const UNICODE_SENSITIVE = /(^|[^\\])(\\\\)*(\.|\[\^|\\[SWDBpPu])/;

function ipFormat(version: unknown): JsonSchema {
  const v = String(version ?? '');
  if (v === '4') return { format: 'ipv4' };
  if (v === '6') return { format: 'ipv6' };
  return { anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] };
}

function defined(keywords: Record<string, unknown>): JsonSchema {
  return Object.fromEntries(Object.entries(keywords).filter(([, v]) => v !== undefined && v !== null));
}
