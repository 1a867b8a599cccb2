export { Tool } from './tool.decorator';
export { Param, Args, Ctx } from './param.decorator';
export { Field, Description } from './field.decorator';
export { Injectable, Inject, Optional, Global, Module } from './injectable.decorator';
export { Resource, ResourceTemplate, ResourceList } from './resource.decorator';
export { Prompt, Complete } from './prompt.decorator';
export { UseGuards, UseInterceptors, UsePipes, UseFilters, Catch, SetMetadata } from './enhancers.decorator';
export type { ClassOrMethodDecorator } from './enhancers.decorator';
export { createParamDecorator } from './param.decorator';
