export * from './design-types';
export * from './tool.metadata';
export * from './param.metadata';
export * from './field.metadata';
export * from './injectable.metadata';
export * from './component.metadata';
export * from './enhancer.metadata';
export * from './auth.metadata';
