/** A page's script imports its styles; scripts/build-views.mjs inlines them as a <style> in the page's head. */
declare module '*.css';
