import { legacyOnly } from './legacy-only';
import type { CompleteOptions, PromptOptions } from '../interfaces';
import { defineComponentMetadata, recordComponentClass } from '../metadata';

/**
 * Exposes a method as a prompt; its `@Param()` parameters are the prompt's arguments. Return a string (one
 * user message), messages, or `{ description, messages }`.
 *
 * @example
 * @Prompt({ description: 'Review code' })
 * review(@Param('code') code: string) { return `Please review:\n${code}`; }
 */
export function Prompt(options: PromptOptions = {}): MethodDecorator {
  return (target, propertyKey) => {
    legacyOnly('@Prompt()', propertyKey);
    recordComponentClass(target);
    defineComponentMetadata('prompt', target, String(propertyKey), { ...options });
  };
}

/**
 * Completes an argument of a prompt or a variable of a resource template. The method receives the typed
 * value and the other arguments already given, and returns candidate values (at most 100 are sent).
 *
 * @example
 * @Complete({ prompt: 'review', argument: 'language' })
 * languages(value: string) { return ['typescript', 'python'].filter((l) => l.startsWith(value)); }
 */
export function Complete(options: CompleteOptions): MethodDecorator {
  return (target, propertyKey) => {
    legacyOnly('@Complete()', propertyKey);
    recordComponentClass(target);
    defineComponentMetadata('complete', target, String(propertyKey), { ...options });
  };
}
