export { Catalogue, invalidCursor, paginate } from './catalogue';
export type { CatalogueItem, Page } from './catalogue';
export { passesTags } from './tags';
export type { TagFilter } from './tags';
export { unknownComponentMessage } from './catalogue.messages';
export { NAMESPACE_PATTERN, NAMESPACE_SEPARATOR, namespacedName, namespacedUri } from './namespace';
export { closestName } from './closest';
export { checkTransforms } from './transform-check';
export { namesOf, printable } from './printable';
