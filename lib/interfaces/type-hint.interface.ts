/** Names a JSON type that a TypeScript constructor cannot (there is no `Integer` class). */
export type TypeName = 'string' | 'number' | 'integer' | 'boolean';

/** One type: a constructor (`String`, `Number`, `Boolean`, `Date`, a DTO class) or a type name. */
export type TypeRef = Function | TypeName;

/** The `type` option: a type, or an array of it written `[ItemType]`. */
export type TypeHint = TypeRef | readonly [TypeRef];

/** A TypeScript enum object or a list of allowed values. */
export type EnumLike = { readonly [key: string]: string | number } | readonly (string | number)[];
