export type Constructor<T = unknown> = new (...args: any[]) => T;
