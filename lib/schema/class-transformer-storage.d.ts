// class-transformer ships the storage's types apart from its CommonJS build; this maps the deep import.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
