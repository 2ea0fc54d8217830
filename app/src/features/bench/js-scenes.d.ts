// Types of js-scenes.js, the plain-JavaScript twins of the widgets' per-frame math.
export declare class IcosahedronJs {
  step(): void;
}
export declare class HypercubeJs {
  step(): void;
}
export declare class HelixJs {
  step(): void;
}
export declare class MoleculeJs {
  step(): void;
}
