import { FIELD_METADATA } from '../constants';
import type { FieldOptions } from '../interfaces';
import { defineMetadata, getMetadata } from './reflect';

const FIELDS_LIST = `${FIELD_METADATA}:list`;

/** Records `@Field()`/`@Description()` options for one DTO property; repeated decorators merge. */
export function defineFieldMetadata(prototype: object, property: string, options: FieldOptions): void {
  const current = getMetadata<FieldOptions>(FIELD_METADATA, prototype, property) ?? {};
  defineMetadata(FIELD_METADATA, { ...current, ...options }, prototype, property);
  const list = getMetadata<string[]>(FIELDS_LIST, prototype) ?? [];
  if (!list.includes(property)) defineMetadata(FIELDS_LIST, [...list, property], prototype);
}

export function getFieldOptions(target: Function, property: string): FieldOptions | undefined {
  return getMetadata<FieldOptions>(FIELD_METADATA, target.prototype, property);
}

/** Properties that carry `@Field()`/`@Description()`, own and inherited. */
export function getFieldProperties(target: Function): readonly string[] {
  return getMetadata<string[]>(FIELDS_LIST, target.prototype) ?? [];
}
