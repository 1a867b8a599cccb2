import type { ValidationError } from 'class-validator';

/**
 * Runs class-validator on a hydrated DTO, for the rules JSON Schema cannot express (custom validators,
 * `@ValidateIf`, locale-specific checks). Returns one line per failed constraint, with its path.
 */
export async function classValidatorIssues(instance: object): Promise<string[]> {
  const { validate } = require('class-validator') as typeof import('class-validator');
  const errors = await validate(instance, { forbidUnknownValues: false });
  const lines: string[] = [];
  const walk = (list: ValidationError[], prefix: string) => {
    for (const error of list) {
      const path = /^\d+$/.test(error.property)
        ? `${prefix}[${error.property}]`
        : prefix
          ? `${prefix}.${error.property}`
          : error.property;
      for (const message of Object.values(error.constraints ?? {})) lines.push(`${path}: ${message}`);
      if (error.children?.length) walk(error.children, path);
    }
  };
  walk(errors, '');
  return lines;
}
