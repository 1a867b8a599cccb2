export { Tool } from './tool.decorator';
export { Param, Args, Ctx } from './param.decorator';
export { Field, Description } from './field.decorator';
export { Injectable, Inject, Optional, Global, Module } from './injectable.decorator';
export { Resource, ResourceTemplate, ResourceList } from './resource.decorator';
export { Prompt, Complete } from './prompt.decorator';
