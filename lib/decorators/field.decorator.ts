import { legacyOnly } from './legacy-only';
import type { FieldOptions } from '../interfaces';
import { defineFieldMetadata } from '../metadata';

/**
 * Describes a DTO property in the generated schema: description, explicit type, enum or a partial schema.
 *
 * @example
 * class Item { @Field({ description: 'SKU code' }) @IsString() sku!: string; }
 */
export function Field(options: FieldOptions): PropertyDecorator {
  return (target, propertyKey) => {
    legacyOnly('@Field()', propertyKey);
    defineFieldMetadata(target, String(propertyKey), { ...options });
  };
}

/**
 * Sets the description of a DTO property in the generated schema.
 *
 * @example
 * class Query { @Description('City name, e.g. Paris') @IsString() city!: string; }
 */
export function Description(text: string): PropertyDecorator {
  return Field({ description: text });
}
