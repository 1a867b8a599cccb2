import type { InjectableOptions, InjectionToken, ModuleOptions } from '../interfaces';
import { defineInjectToken, defineInjectableMetadata, defineModuleMetadata } from '../metadata';

/**
 * Marks a class as a provider the container can build; its constructor parameters are injected by type.
 *
 * @example
 * @Injectable()
 * class GeoService {}
 */
export function Injectable(options: InjectableOptions = {}): ClassDecorator {
  return (target) => defineInjectableMetadata(target, { ...options });
}

/**
 * Injects the provider registered under `token` (a string, symbol or class) into a constructor parameter.
 *
 * @example
 * constructor(@Inject('API_KEY') private readonly apiKey: string) {}
 */
export function Inject(token: InjectionToken): ParameterDecorator {
  return (target, _propertyKey, index) => defineInjectToken(target as Function, index, token);
}

/**
 * Declares a module: the providers it owns, the modules it imports, and what it exports to its importers.
 *
 * @example
 * @Module({ imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0' })], providers: [WeatherTools] })
 * class AppModule {}
 */
export function Module(options: ModuleOptions = {}): ClassDecorator {
  return (target) => defineModuleMetadata(target, { ...options });
}
