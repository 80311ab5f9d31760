// The look of a native <select> on every form and filter (a red border when the field is invalid).
export const SELECT_CLASS =
  'h-10 rounded-md border border-gray-300 bg-white px-3 text-sm shadow-sm focus-visible:border-brand dark:border-gray-700 dark:bg-gray-900 aria-[invalid]:border-red-500'
