export { defaultMetadataFile, generateMetadata, writeIfChanged, isCurrent, watchProject, type GenerateOptions, type GenerateResult } from './generate';
export { GeneratorError } from './generator.error';
export { readOwnFile, replaceFile } from './replace-file';
