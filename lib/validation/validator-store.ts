import type Ajv from 'ajv';
import { LRUCache } from 'lru-cache';
import type { ValidateFunction } from './ajv-factory';

/**
 * Schema text (JSON characters) whose validators are kept for one source of schemas known only at run time (a
 * proxied remote), per compiler of the application: docs/reliability.md#proxy-a-hostile-remote-mcpmoduleproxy.
 */
export const SOURCE_VALIDATOR_BYTES = 1024 * 1024;

/**
 * Where a compiler keeps the validators it made, keyed by schema text (`use:allErrors:json`), the schemas it has
 * checked against their meta-schema, and its ajv engines (one per dialect, use and reporting).
 */
export interface ValidatorStore {
  get(key: string): ValidateFunction | undefined;
  /** Keeps `validate` under `key` (whose schema text is its size). */
  set(key: string, validate: ValidateFunction): void;
  isChecked(json: string): boolean;
  checked(json: string): void;
  /** The engine under `key`, made by `make` when there is none: `json` is the schema it is about to compile. */
  engine(key: string, json: string, make: () => Ajv): Ajv;
}

/**
 * The application's validators, from its own classes and the documents it was given at bootstrap: kept for good
 * (their number is the application's, whatever its clients or remotes do).
 */
export class ApplicationValidators implements ValidatorStore {
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly checkedSchemas = new Set<string>();
  private readonly engines = new Map<string, Ajv>();

  get(key: string): ValidateFunction | undefined {
    return this.compiled.get(key);
  }

  set(key: string, validate: ValidateFunction): void {
    this.compiled.set(key, validate);
  }

  isChecked(json: string): boolean {
    return this.checkedSchemas.has(json);
  }

  checked(json: string): void {
    this.checkedSchemas.add(json);
  }

  engine(key: string, _json: string, make: () => Ajv): Ajv {
    let engine = this.engines.get(key);
    if (!engine) this.engines.set(key, (engine = make()));
    return engine;
  }
}

/**
 * The validators of one source whose schemas are known only at run time and may change at any moment (a proxied
 * remote's catalogue, replaced on each `list_changed`): bounded by schema text, the least recently used forgotten
 * first, apart from the application's so that a remote's churn never pushes out one of the application's own.
 *
 * An ajv engine holds every schema it compiled, and its compiled functions hold the engine, for as long as any
 * of them is in use: forgetting an entry frees nothing while its engine lives. So the source's engines are
 * replaced once they have compiled `maxBytes` of schema text, and what was kept with them is forgotten then: the
 * old engines live only while the components that use their validators do (a catalogue the remote replaced goes
 * with its components). What a forgotten validator costs is a compilation the next time it is needed.
 */
export class SourceValidators implements ValidatorStore {
  private readonly kept: LRUCache<string, ValidateFunction | true>;
  private engines = new Map<string, Ajv>();
  /** Schema text the current engines have compiled. */
  private compiledBytes = 0;

  constructor(private readonly maxBytes = SOURCE_VALIDATOR_BYTES) {
    this.kept = new LRUCache<string, ValidateFunction | true>({ maxSize: maxBytes, sizeCalculation: (_value, key) => Math.max(1, key.length) });
  }

  get(key: string): ValidateFunction | undefined {
    const found = this.kept.get(key);
    return found === true ? undefined : found;
  }

  set(key: string, validate: ValidateFunction): void {
    this.kept.set(key, validate);
  }

  isChecked(json: string): boolean {
    return this.kept.has(`checked:${json}`);
  }

  checked(json: string): void {
    this.kept.set(`checked:${json}`, true);
  }

  engine(key: string, json: string, make: () => Ajv): Ajv {
    if (this.compiledBytes > 0 && this.compiledBytes + json.length > this.maxBytes) {
      this.engines = new Map();
      this.kept.clear();
      this.compiledBytes = 0;
    }
    this.compiledBytes += json.length;
    let engine = this.engines.get(key);
    if (!engine) this.engines.set(key, (engine = make()));
    return engine;
  }

  /** Schema text held now: the keys of the validators and checks kept (for specs and diagnostics). */
  get bytes(): number {
    return this.kept.calculatedSize;
  }

  /** Schema text compiled by the current engines (at most `maxBytes` before they are replaced). */
  get engineBytes(): number {
    return this.compiledBytes;
  }
}
