/// The introspection document the player returns from `Introspect`: the interfaces, methods, signals and
/// properties it serves at ``MPRISNames/objectPath``.
public enum MPRISIntrospection {
    /// The XML document.
    public static let xml = """
    <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
    <node>
     <interface name="org.freedesktop.DBus.Introspectable">
      <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
     </interface>
     <interface name="org.freedesktop.DBus.Peer">
      <method name="Ping"/>
      <method name="GetMachineId"><arg name="machine_uuid" type="s" direction="out"/></method>
     </interface>
     <interface name="org.freedesktop.DBus.Properties">
      <method name="Get">
       <arg name="interface_name" type="s" direction="in"/><arg name="property_name" type="s" direction="in"/>
       <arg name="value" type="v" direction="out"/>
      </method>
      <method name="GetAll">
       <arg name="interface_name" type="s" direction="in"/><arg name="props" type="a{sv}" direction="out"/>
      </method>
      <method name="Set">
       <arg name="interface_name" type="s" direction="in"/><arg name="property_name" type="s" direction="in"/>
       <arg name="value" type="v" direction="in"/>
      </method>
      <signal name="PropertiesChanged">
       <arg name="interface_name" type="s"/><arg name="changed_properties" type="a{sv}"/>
       <arg name="invalidated_properties" type="as"/>
      </signal>
     </interface>
     <interface name="org.mpris.MediaPlayer2">
      <method name="Raise"/>
      <method name="Quit"/>
      <property name="CanQuit" type="b" access="read"/>
      <property name="CanRaise" type="b" access="read"/>
      <property name="HasTrackList" type="b" access="read"/>
      <property name="Identity" type="s" access="read"/>
      <property name="SupportedUriSchemes" type="as" access="read"/>
      <property name="SupportedMimeTypes" type="as" access="read"/>
     </interface>
     <interface name="org.mpris.MediaPlayer2.Player">
      <method name="Next"/>
      <method name="Previous"/>
      <method name="Pause"/>
      <method name="PlayPause"/>
      <method name="Stop"/>
      <method name="Play"/>
      <method name="Seek"><arg name="Offset" type="x" direction="in"/></method>
      <method name="SetPosition">
       <arg name="TrackId" type="o" direction="in"/><arg name="Position" type="x" direction="in"/>
      </method>
      <method name="OpenUri"><arg name="Uri" type="s" direction="in"/></method>
      <signal name="Seeked"><arg name="Position" type="x"/></signal>
      <property name="PlaybackStatus" type="s" access="read"/>
      <property name="Rate" type="d" access="readwrite"/>
      <property name="Metadata" type="a{sv}" access="read"/>
      <property name="Volume" type="d" access="readwrite"/>
      <property name="Position" type="x" access="read">
       <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="false"/>
      </property>
      <property name="MinimumRate" type="d" access="read"/>
      <property name="MaximumRate" type="d" access="read"/>
      <property name="CanGoNext" type="b" access="read"/>
      <property name="CanGoPrevious" type="b" access="read"/>
      <property name="CanPlay" type="b" access="read"/>
      <property name="CanPause" type="b" access="read"/>
      <property name="CanSeek" type="b" access="read"/>
      <property name="CanControl" type="b" access="read"/>
     </interface>
    </node>
    """
}
