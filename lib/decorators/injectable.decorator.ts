import { legacyOnly } from './legacy-only';
import type { DependencyToken, InjectableOptions, ModuleOptions } from '../interfaces';
import {
  defineGlobalModule,
  defineInjectToken,
  defineInjectableMetadata,
  defineModuleMetadata,
  defineOptionalDependency,
} from '../metadata';

/**
 * Marks a class as a provider the container can build; its constructor parameters are injected by type.
 *
 * @example
 * @Injectable()
 * class GeoService {}
 */
export function Injectable(options: InjectableOptions = {}): ClassDecorator {
  return ((target: Function, context?: unknown) => {
    legacyOnly('@Injectable()', context);
    defineInjectableMetadata(target, { ...options });
  }) as ClassDecorator;
}

/**
 * Injects the provider registered under `token` (a string, symbol, class, or `forwardRef(() => Class)`)
 * into a constructor parameter.
 *
 * @example
 * constructor(@Inject('API_KEY') private readonly apiKey: string) {}
 */
export function Inject(token: DependencyToken): ParameterDecorator {
  return (target, _propertyKey, index) => defineInjectToken(target as Function, index, token);
}

/**
 * Lets a constructor dependency be missing: the parameter then receives `undefined`.
 *
 * @example
 * constructor(@Optional() @Inject('CACHE') private readonly cache?: Cache) {}
 */
export function Optional(): ParameterDecorator {
  return (target, _propertyKey, index) => defineOptionalDependency(target as Function, index);
}

/**
 * Makes a module's exports visible to every module without importing it. Use sparingly: for truly
 * cross-cutting providers (configuration, logging).
 *
 * @example
 * @Global()
 * @Module({ providers: [ConfigService], exports: [ConfigService] })
 * class ConfigModule {}
 */
export function Global(): ClassDecorator {
  return ((target: Function, context?: unknown) => {
    legacyOnly('@Global()', context);
    defineGlobalModule(target);
  }) as ClassDecorator;
}

/**
 * Declares a module: the providers it owns, the modules it imports, and what it exports to its importers.
 *
 * @example
 * @Module({ imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0' })], providers: [WeatherTools] })
 * class AppModule {}
 */
export function Module(options: ModuleOptions = {}): ClassDecorator {
  return ((target: Function, context?: unknown) => {
    legacyOnly('@Module()', context);
    defineModuleMetadata(target, { ...options });
  }) as ClassDecorator;
}
