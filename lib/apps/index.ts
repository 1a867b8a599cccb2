export { checkUiLinks } from './ui-links';
export { isUiResource, toolUiOptions, uiContentMeta, UI_EXTENSIONS, withToolUi } from './ui-meta';
